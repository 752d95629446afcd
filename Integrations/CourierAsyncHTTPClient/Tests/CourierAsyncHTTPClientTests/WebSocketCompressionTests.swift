import Courier
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import CourierAsyncHTTPClient

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

        @Test("a compressed message is inflated only when the reader takes it: never a read's worth at once")
        func inflatedWhenTaken() async throws {
            let peer = try PythonWebSocketPeer()
            let engine = ConnectionCapture(base: AsyncHTTPClientTransport())
            var options = WebSocketOptions()
            options.compression = .deflate
            options.maximumMessageSize = 1 << 20
            let socket = try await Provider<Chat>(transport: engine).webSocket(
                .peer(peer.baseURL, path: "/echo"), options: options)
            let connection = try #require(engine.connection as? NIOWebSocketConnection)
            var messages = socket.messages.makeAsyncIterator()
            // 64 messages of 1 MiB each travel as about 1 KiB: one read of the network holds many.
            try await socket.send(.text("zeros \(1 << 20)x64"))
            for count in 1...64 {
                #expect(try await messages.next() == .binary(Data(count: 1 << 20)))
                #expect(connection.inflatedMessages == count)
            }
            await socket.close()
        }

        @Test("a field the engine writes, added by an adapter, fails the handshake before it is sent")
        func adaptedExtensionField() async throws {
            let peer = try PythonWebSocketPeer()
            let adding = Adapter { request, _ in
                var request = request
                request.setValue("permessage-deflate", forHTTPHeaderField: "Sec-WebSocket-Extensions")
                return request
            }
            let provider = Provider<Chat>(
                transport: AsyncHTTPClientTransport(), interceptor: Interceptor(adapters: [adding]))
            let error = await #expect(throws: CourierError.self) {
                try await provider.webSocket(.peer(peer.baseURL, path: "/echo"))
            }
            guard case .adaptation(let underlying, _)? = error else {
                Issue.record("expected adaptation, got \(String(describing: error))")
                return
            }
            guard case .reservedHeaderField(let name)? = underlying as? WebSocketError else {
                Issue.record("expected reservedHeaderField, got \(underlying)")
                return
            }
            #expect(name.lowercased() == "sec-websocket-extensions")
        }
    }
}

/// The engine `base`, keeping the connection of the last socket it opened.
final class ConnectionCapture: Transport, Sendable {
    let base: any Transport
    private let captured = NIOLockedValueBox<(any WebSocketConnection)?>(nil)

    init(base: any Transport) {
        self.base = base
    }

    var connection: (any WebSocketConnection)? { captured.withLockedValue { $0 } }
    var capabilities: TransportCapabilities { base.capabilities }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let upgrade = request.webSocket else { return try await base.send(request) }
        var relayed = request
        relayed.webSocket = upgrade.relaying { [captured] connection in
            captured.withLockedValue { $0 = connection }
            return connection
        }
        return try await base.send(relayed)
    }
}
