import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A chat API whose rooms open as sockets, as the README declares it.
enum Chat: TargetType {
    case chat(room: Int)
    case peer(URL, path: String)

    var baseURL: URL {
        if case .peer(let url, _) = self { return url }
        return URL(string: "wss://chat.example")!
    }
    var path: String {
        switch self {
        case .chat(let room): "/rooms/\(room)"
        case .peer(_, let path): path
        }
    }
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

extension SerializedSuite {
    /// Sockets through the whole pipeline on this engine, against a server written by others.
    @Suite(
        "WebSockets against Python's websockets server",
        .enabled(if: PythonWebSocketPeer.isAvailable, "needs Python's websockets package (.ci/run installs it)"))
    struct WebSocketPeerTests {
        @Test("echo: 1,000 messages each way, text and binary, and a 1 MiB message, in order")
        func echo() async throws {
            let peer = try PythonWebSocketPeer()
            let socket = try await Provider<Chat>(transport: AsyncHTTPClientTransport()).webSocket(
                .peer(peer.baseURL, path: "/echo"))
            let large = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let reader = Task {
                var received: [WebSocketMessage] = []
                for try await message in socket.messages {
                    received.append(message)
                    if received.count == 1_001 { break }
                }
                return received
            }
            var sent: [WebSocketMessage] = []
            for index in 0..<1_000 {
                let message: WebSocketMessage =
                    index % 2 == 0 ? .text("m\(index)") : .binary(Data([UInt8(index % 256)]))
                sent.append(message)
                try await socket.send(message)
            }
            try await socket.send(.binary(large))
            #expect(try await reader.value == sent + [.binary(large)])
            await socket.close()
        }

        @Test(
            "the server kills the connection, then refuses the old token: one refresh, the socket opens again with the new one and resubscribes"
        )
        func reconnectWithNewToken() async throws {
            let peer = try PythonWebSocketPeer(refusing: ["Bearer t1"])
            let refreshes = NIOLockedValueBox(0)
            var options = WebSocketOptions()
            options.reconnection = WebSocketReconnection(delay: 0.05, maximumAttempts: 3) { socket in
                try await socket.send(.text("resubscribed"))
            }
            let provider = Provider<Chat>(
                transport: AsyncHTTPClientTransport(),
                interceptor: AuthenticationInterceptor(
                    authenticator: Swap(refreshes: refreshes), credential: Token(value: "Bearer t1")))
            let socket = try await provider.webSocket(.peer(peer.baseURL, path: "/room"), options: options)
            #expect(socket.response.request?.value(forHTTPHeaderField: "Authorization") == "Bearer t1")
            try await socket.send(.text("die"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("resubscribed"))
            #expect(refreshes.withLockedValue { $0 } == 1)
            #expect(socket.response.request?.value(forHTTPHeaderField: "Authorization") == "Bearer t2")
            await socket.close()
        }

        @Test("the server killed mid-connection: the messages end with connectionLost")
        func killed() async throws {
            let peer = try PythonWebSocketPeer()
            let socket = try await Provider<Chat>(transport: AsyncHTTPClientTransport()).webSocket(
                .peer(peer.baseURL, path: "/echo"))
            try await socket.send(.text("hello"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("hello"))
            peer.kill()
            let error = await #expect(throws: TransportFailure.self) { try await messages.next() }
            #expect(error?.kind == .connectionLost)
        }

        @Test("the README's sample: a chat socket on AsyncHTTPClientTransport, against a loopback server")
        func readmeSample() async throws {
            let server = try WebSocketServer { peer in
                while case .message(let message)? = peer.receive() { peer.send(message) }
            }
            defer { server.stop() }
            let chat = Provider<Chat>(
                endpointClosure: { target in
                    Provider.defaultEndpointMapping(for: target).replacing(origin: server.baseURL)
                }, transport: AsyncHTTPClientTransport())
            // The README's lines, as written (the reader collects instead of printing).
            let socket = try await chat.webSocket(.chat(room: 42))
            let reader = Task {
                var received: [WebSocketMessage] = []
                for try await message in socket.messages { received.append(message) }  // until either side closes
                return received
            }
            try await socket.send(.text("hello"))
            await socket.close()
            let received = try await reader.value
            #expect(received.allSatisfy { $0 == .text("hello") })
            #expect(socket.closeCode?.code == .normalClosure)
            #expect(server.handshakes.first?.path == "/rooms/42")
        }
    }
}

/// A token.
struct Token: AuthenticationCredential {
    let value: String
    var requiresRefresh: Bool { false }
}

/// Signs with the token; a refresh gives `Bearer t2`.
struct Swap: Authenticator {
    let refreshes: NIOLockedValueBox<Int>

    func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue(credential.value, forHTTPHeaderField: "Authorization")
        return request
    }

    func refresh(_ credential: Token) async throws -> Token {
        refreshes.withLockedValue { $0 += 1 }
        return Token(value: "Bearer t2")
    }
}
