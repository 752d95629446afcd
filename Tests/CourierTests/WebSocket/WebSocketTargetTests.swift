import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target opened as a socket, with the peer its test scripts.
struct SocketTarget: TargetType {
    var baseURL = URL(string: "wss://chat.example/v1")!
    var path = "/rooms/42"
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]? = nil
    var script = WebSocketScript.echo
    var sampleWebSocket: WebSocketScript { script }
}

/// A value sent and read as JSON.
struct ChatLine: Codable, Hashable, Sendable {
    let author: String
    let text: String
}

/// Sockets opened through the pipeline, on the stub engine's scripted peer.
@Suite("WebSocket targets")
struct WebSocketTargetTests {
    let stubbed = Provider<SocketTarget>(stubClosure: Provider.immediatelyStub)

    @Test("echo: text, binary and an Encodable value go out and come back; a close ends the messages")
    func echo() async throws {
        let socket = try await stubbed.webSocket(SocketTarget())
        try await socket.send(.text("hello"))
        try await socket.send(.binary(Data([0, 1, 2])))
        try await socket.send(ChatLine(author: "ann", text: "hi"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("hello"))
        #expect(try await iterator.next() == .binary(Data([0, 1, 2])))
        let line = try #require(try await iterator.next())
        #expect(try JSONDecoder().decode(ChatLine.self, from: line.data) == ChatLine(author: "ann", text: "hi"))
        await socket.close(code: .application(4001)!, reason: "done")
        #expect(try await iterator.next() == nil)
        #expect(socket.closeCode?.code == .application(4001))
        await #expect(throws: WebSocketError.closed(.application(4001)!, reason: "done")) {
            try await socket.send(.text("late"))
        }
    }

    @Test("decoded messages, and a message that does not decode ends them with a typed error")
    func decoded() async throws {
        let target = SocketTarget(
            script: WebSocketScript(onOpen: [
                .send(.text(#"{"author":"bo","text":"yo"}"#)), .send(.text("not json")),
            ]))
        let socket = try await stubbed.webSocket(target)
        var lines = socket.messages(as: ChatLine.self).makeAsyncIterator()
        #expect(try await lines.next() == ChatLine(author: "bo", text: "yo"))
        await #expect(throws: WebSocketError.self) { try await lines.next() }
    }

    @Test("the peer's close ends the messages with its code; a dropped connection throws connectionLost")
    func peerEnds() async throws {
        let closing = try await stubbed.webSocket(
            SocketTarget(script: WebSocketScript(onOpen: [.send(.text("bye")), .close(.goingAway, reason: "restart")])))
        var messages: [WebSocketMessage] = []
        for try await message in closing.messages { messages.append(message) }
        #expect(messages == [.text("bye")])
        #expect(closing.closeCode?.code == .goingAway)
        #expect(closing.closeCode?.reason == "restart")

        let dropped = try await stubbed.webSocket(SocketTarget(script: WebSocketScript(onOpen: [.drop])))
        let error = await #expect(throws: TransportFailure.self) {
            for try await _ in dropped.messages {}
        }
        #expect(error?.kind == .connectionLost)
        #expect(dropped.closeCode == nil)
    }

    @Test("a target that cannot open as a socket fails before anything is sent, with a typed error")
    func refusedTargets() async throws {
        let cases: [(SocketTarget, WebSocketError)] = [
            (SocketTarget(method: .post), .methodNotGET("POST")),
            (SocketTarget(task: .requestData(Data("x".utf8))), .bodyNotAllowed),
            (SocketTarget(baseURL: URL(string: "ftp://chat.example")!), .unsupportedScheme("ftp")),
            // As Starscream's users name a subprotocol: WebSocketOptions offers it, and checks the answer.
            (
                SocketTarget(headers: ["Sec-WebSocket-Protocol": "graphql-ws"]),
                .reservedHeaderField("Sec-WebSocket-Protocol")
            ),
            (
                SocketTarget(headers: ["sec-websocket-extensions": "permessage-deflate"]),
                .reservedHeaderField("sec-websocket-extensions")
            ),
        ]
        for (target, expected) in cases {
            let error = await #expect(throws: CourierError.self) { try await stubbed.webSocket(target) }
            guard case .requestBuilding(let underlying)? = error else {
                Issue.record("expected requestBuilding(\(expected)), got \(String(describing: error))")
                continue
            }
            if expected == .bodyNotAllowed {
                // A GET with a body is refused while the request is built, for sockets as for requests.
                #expect(underlying as? RequestValidationError == .bodyNotAllowed(.get))
            } else {
                #expect(underlying as? WebSocketError == expected)
            }
        }
    }

    @Test(
        "isCompressed reads the extension named in the 101, not a longer name that contains it",
        arguments: [
            ("permessage-deflate", true), ("Permessage-Deflate ; client_max_window_bits=10", true),
            ("x-foo, permessage-deflate", true), ("x-permessage-deflate-draft", false),
            ("x-foo; permessage-deflate", false), (nil, false),
        ] as [(String?, Bool)])
    func isCompressed(_ extensions: String?, _ expected: Bool) async throws {
        let engine = ScriptedSocketEngine(script: WebSocketScript(), extensions: extensions)
        let socket = try await Provider<SocketTarget>(transport: engine).webSocket(SocketTarget())
        #expect(socket.isCompressed == expected)
        await socket.close()
    }

    @Test("URLSession on Linux cannot open a socket: a typed error naming the engine, nothing sent")
    func urlSessionOnLinux() async throws {
        #if canImport(FoundationNetworking)
            let server = try LoopbackServer { _ in ServerReply(status: 101) }
            defer { server.stop() }
            let provider = Provider<SocketTarget>()
            var target = SocketTarget(baseURL: server.baseURL)
            target.path = "/socket"
            let error = await #expect(throws: CourierError.self) { try await provider.webSocket(target) }
            guard case .requestBuilding(let underlying)? = error else {
                Issue.record("expected requestBuilding(unsupportedOptions), got \(String(describing: error))")
                return
            }
            #expect(
                underlying as? RequestValidationError
                    == .unsupportedOptions(.webSocket, transport: "URLSessionTransport"))
            #expect(String(describing: underlying).contains("AsyncHTTPClientTransport"))
            #expect(server.requests.isEmpty)
        #endif
    }

    @Test("a ws: or wss: URL travels the pipeline as http: or https: (cookies, trust and logs see the origin)")
    func schemes() async throws {
        let seen = Locked<[String]>([])
        let target = SocketTarget(
            script: WebSocketScript(handshake: { request in
                seen.withLock { $0.append(request.url?.absoluteString ?? "") }
                return .accept(subprotocol: "chat.v2")
            }))
        var options = WebSocketOptions()
        options.subprotocols = ["chat.v2", "chat.v1"]
        let socket = try await stubbed.webSocket(target, options: options)
        #expect(seen.value == ["https://chat.example/v1/rooms/42"])
        #expect(socket.response.statusCode == 101)
        #expect(socket.subprotocol == "chat.v2")
        await socket.close()
    }

    @Test("a refused upgrade is a response: validation fails it with the status, and its body is kept")
    func refusal() async throws {
        let target = SocketTarget(
            script: WebSocketScript(handshake: { _ in
                .refuse(status: 429, headerFields: ["Retry-After": "3"], body: Data("slow down".utf8))
            }))
        let error = await #expect(throws: CourierError.self) { try await stubbed.webSocket(target) }
        guard case .statusCode(let response)? = error else {
            Issue.record("expected statusCode(429), got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 429)
        #expect(response.headerFields["Retry-After"] == "3")
        #expect(response.data == Data("slow down".utf8))
    }

    @Test("a message over the limit ends the messages with messageTooBig, even from an engine that let it through")
    func tooBig() async throws {
        var options = WebSocketOptions()
        options.maximumMessageSize = 4
        let target = SocketTarget(script: WebSocketScript(onOpen: [.send(.text("1234")), .send(.text("12345"))]))
        let socket = try await stubbed.webSocket(target, options: options)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("1234"))
        await #expect(throws: WebSocketError.messageTooBig(limit: 4)) { try await messages.next() }
        await #expect(throws: WebSocketError.messageTooBig(limit: 4)) { try await socket.send(.text("x")) }
    }

    @Test("a full send buffer fails at once rather than queueing without bound")
    func sendBuffer() async throws {
        var options = WebSocketOptions()
        options.sendBufferLimit = 0
        let socket = try await stubbed.webSocket(SocketTarget(), options: options)
        await #expect(throws: WebSocketError.sendBufferFull(limit: 0)) { try await socket.send(.text("x")) }
        await socket.close()
    }

    @Test("a close reason longer than a close frame holds is cut at a character's end")
    func longReason() async throws {
        let socket = try await stubbed.webSocket(SocketTarget())
        await socket.close(reason: String(repeating: "é", count: 100))
        let reason = try #require(socket.closeCode?.reason)
        #expect(reason.utf8.count == 122)
        #expect(reason.allSatisfy { $0 == "é" })
    }
}
