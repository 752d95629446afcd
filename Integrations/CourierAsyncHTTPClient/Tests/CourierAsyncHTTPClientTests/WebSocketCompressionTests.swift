import Courier
import CourierAsyncHTTPClient
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// permessage-deflate against Python's `websockets` server, which compresses when offered.
    @Suite(
        "WebSocket compression against Python's websockets server",
        .enabled(if: PythonWebSocketPeer.isAvailable, "needs Python's websockets package (.ci/run installs it)"))
    struct WebSocketCompressionTests {
        static func socket(
            _ peer: PythonWebSocketPeer, compression: WebSocketCompression?, maximumMessageSize: Int = 16 << 20
        ) async throws -> WebSocket {
            var options = WebSocketOptions()
            options.compression = compression
            options.maximumMessageSize = maximumMessageSize
            return try await Provider<Chat>(transport: AsyncHTTPClientTransport()).webSocket(
                .peer(peer.baseURL, path: "/echo"), options: options)
        }

        @Test(
            "offered, agreed: 1,000 messages each way and 1 MiB, compressed both ways, in order",
            arguments: [WebSocketCompression.deflate, WebSocketCompression(noContextTakeover: true)])
        func echo(_ compression: WebSocketCompression) async throws {
            let peer = try PythonWebSocketPeer()
            let socket = try await Self.socket(peer, compression: compression)
            #expect(socket.isCompressed)
            var messages = socket.messages.makeAsyncIterator()
            try await socket.send(.text("extensions"))
            #expect(try await messages.next() == .text("permessage-deflate"))
            let large = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 / 64) &* 7) })
            var sent: [WebSocketMessage] = []
            for index in 0..<1_000 {
                let message: WebSocketMessage =
                    index % 2 == 0 ? .text("message number \(index), and some repeated text") : .binary(Data())
                sent.append(message)
                try await socket.send(message)
            }
            sent.append(.binary(large))
            try await socket.send(.binary(large))
            var received: [WebSocketMessage] = []
            while received.count < sent.count, let message = try await messages.next() { received.append(message) }
            #expect(received == sent)
            await socket.close()
        }

        @Test("not offered: nothing is compressed, and the server agrees to nothing")
        func notOffered() async throws {
            let peer = try PythonWebSocketPeer()
            let socket = try await Self.socket(peer, compression: nil)
            #expect(!socket.isCompressed)
            var messages = socket.messages.makeAsyncIterator()
            try await socket.send(.text("extensions"))
            #expect(try await messages.next() == .text("none"))
            await socket.close()
        }

        @Test("a message that inflates past the limit fails with messageTooBig and closes with 1009")
        func bomb() async throws {
            let peer = try PythonWebSocketPeer()
            // 64 MiB of zeros travel as about 64 KiB.
            let socket = try await Self.socket(peer, compression: .deflate, maximumMessageSize: 1 << 20)
            var messages = socket.messages.makeAsyncIterator()
            try await socket.send(.text("zeros \(1 << 20)"))
            #expect(try await messages.next() == .binary(Data(count: 1 << 20)))
            try await socket.send(.text("zeros \(64 << 20)"))
            await #expect(throws: WebSocketError.messageTooBig(limit: 1 << 20)) { try await messages.next() }
            #expect(socket.closeCode == nil || socket.closeCode?.code == .messageTooBig)
        }
    }
}
