import Courier
import Foundation

/// The cases of ``WebSocketConformance``.
extension WebSocketConformanceRun {
    func perform() async throws {
        switch testCase {
        case .echo: try await echo()
        case .fragmentsAndControlFrames: try await fragments()
        case .closeByClient: try await closeByClient()
        case .closeByServer: try await closeByServer()
        case .invalidUTF8:
            try await refused(code: 1007) {
                $0.sendFrame(WebSocketFrame(opcode: 1, payload: Data([0x68, 0xFF, 0xFE])))
            }
        case .maskedServerFrame:
            try await refused(code: 1002, mask: true) {
                $0.sendFrame(WebSocketFrame(opcode: 1, payload: Data("hi".utf8)), mask: [1, 2, 3, 4])
            }
        case .reservedBits:
            // FIN, RSV1 and text, "hi": RSV1 means a compressed message, and no extension was agreed.
            try await refused(code: 1002) { $0.sendRaw(Data([0xC1, 0x02, 0x68, 0x69])) }
        case .oversizedFrame: try await oversized()
        case .unansweredClose: try await unansweredClose()
        case .refusedHandshake: try await refusedHandshake()
        case .connectionLost: try await connectionLost()
        case .subprotocols: try await subprotocols()
        case .slowReader: try await slowReader()
        case .silentPeer: try await silentPeer()
        }
    }

    static let echoing: @Sendable (WebSocketPeer) -> Void = { peer in
        while case .message(let message)? = peer.receive() { peer.send(message) }
    }

    private func echo() async throws {
        let server = try WebSocketServer(session: Self.echoing)
        defer { server.stop() }
        let socket = try await open(server)
        let large = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var messages = socket.messages.makeAsyncIterator()
        for message in [WebSocketMessage.text("héllo"), .binary(Data([0, 1, 2])), .binary(large)] {
            try await socket.send(message)
            let back = try await messages.next()
            try expect(
                back == message,
                "sent \(message.size) bytes (opcode \(message.opcode)), got \(back.map { "\($0.size) bytes (opcode \($0.opcode))" } ?? "the end")"
            )
        }
        await socket.close()
    }

    private func fragments() async throws {
        let pong = Locked<Data?>(nil)
        let server = try WebSocketServer { peer in
            peer.sendFrame(WebSocketFrame(opcode: WebSocketFrame.text, payload: Data("frag".utf8), fin: false))
            peer.sendFrame(WebSocketFrame(opcode: WebSocketFrame.ping, payload: Data("p1".utf8)))
            peer.sendFrame(WebSocketFrame(opcode: WebSocketFrame.continuation, payload: Data("men".utf8), fin: false))
            peer.sendFrame(WebSocketFrame(opcode: WebSocketFrame.continuation, payload: Data("ted".utf8)))
            while let frame = peer.receiveFrame(), frame.opcode != WebSocketFrame.close {
                if frame.opcode == WebSocketFrame.pong { pong.withLock { $0 = frame.payload } }
            }
        }
        defer { server.stop() }
        let socket = try await open(server)
        var messages = socket.messages.makeAsyncIterator()
        let message = try await messages.next()
        try expect(
            message == .text("fragmented"), "got \(message.map { "\($0)" } ?? "the end"), not the joined fragments")
        let answered = await Self.eventually { pong.value == Data("p1".utf8) }
        try expect(answered, "the ping between fragments was not answered with its payload")
        await socket.close()
    }

    private func closeByClient() async throws {
        let server = try WebSocketServer(session: Self.echoing)
        defer { server.stop() }
        let socket = try await open(server)
        let closed = await Self.within(10) { () async -> Bool in
            await socket.close(code: .application(4001)!, reason: "bye")
            return true
        }
        try expect(closed != nil, "close did not return within 10 s")
        let seen = await Self.eventually { server.received.last == .closed(code: 4001, reason: "bye") }
        try expect(seen, "the server saw \(server.received.last.map { "\($0)" } ?? "no close"), not 4001 \"bye\"")
    }

    private func closeByServer() async throws {
        let server = try WebSocketServer { peer in
            peer.close(code: 1001, reason: "restart")
            _ = peer.receive()
        }
        defer { server.stop() }
        let socket = try await open(server)
        var messages = socket.messages.makeAsyncIterator()
        let next = try await messages.next()
        try expect(next == nil, "the messages did not end at the server's close")
        let code = socket.closeCode
        try expect(
            code?.code == .goingAway && code?.reason == "restart", "the close was \(code.map { "\($0)" } ?? "unknown")")
    }

    /// The server sends `frame` (masked with `mask`); the client must fail with the matching
    /// error and close with `code` (or cut the connection, for a masked frame).
    /// The server sends what `send` writes: the client must fail with the error of `code` and
    /// close with it (a client may close without a close frame after a masked one).
    private func refused(
        code: UInt16, mask: Bool = false, _ send: @escaping @Sendable (WebSocketPeer) -> Void
    ) async throws {
        let server = try WebSocketServer { peer in
            send(peer)
            _ = peer.receive()
        }
        defer { server.stop() }
        let socket = try await open(server)
        let error = try await nextError(socket)
        let expected = code == 1007 ? "invalidUTF8" : "protocolViolation"
        switch error {
        case WebSocketError.invalidUTF8 where code == 1007, WebSocketError.protocolViolation where code == 1002: break
        default: throw fail("expected WebSocketError.\(expected), got \(error)")
        }
        _ = await Self.eventually(5) { Self.closeCode(server) != nil }
        let sent = Self.closeCode(server)
        try expect(
            sent == code || (mask && sent == nil),
            "the client closed with \(sent.map(String.init) ?? "no close frame"), not \(code)")
    }

    private func oversized() async throws {
        let server = try WebSocketServer { peer in
            // A binary frame announcing 100 MiB, of which 2 MiB come.
            var head = Data([0x82, 127])
            for shift in stride(from: 56, through: 0, by: -8) {
                head.append(UInt8(truncatingIfNeeded: (100 << 20) >> shift))
            }
            peer.sendRaw(head)
            peer.sendRaw(Data(count: 2 << 20))
            _ = peer.receive()
        }
        defer { server.stop() }
        var options = WebSocketOptions()
        options.maximumMessageSize = 1 << 20
        let socket = try await open(server, options)
        let error = try await nextError(socket)
        try expect(
            error as? WebSocketError == .messageTooBig(limit: 1 << 20), "expected messageTooBig(1 MiB), got \(error)")
        _ = await Self.eventually(5) { Self.closeCode(server) != nil }
        try expect(
            Self.closeCode(server) == 1009,
            "the client closed with \(Self.closeCode(server).map(String.init) ?? "no close frame"), not 1009")
    }

    private func unansweredClose() async throws {
        let server = try WebSocketServer { peer in
            while let frame = peer.receiveFrame(), frame.opcode != WebSocketFrame.close {}
            // Never answers: reads until the client cuts the connection.
            while peer.receiveFrame() != nil {}
        }
        defer { server.stop() }
        var options = WebSocketOptions()
        options.closeTimeout = 1
        let socket = try await open(server, options)
        let started = Date()
        let returned = await Self.within(10) { () async -> Bool in
            await socket.close()
            return true
        }
        let took = Date().timeIntervalSince(started)
        try expect(
            returned != nil && took < 3,
            "close took \(returned == nil ? "over 10" : String(format: "%.1f", took)) s with a 1 s close timeout")
    }

    private func silentPeer() async throws {
        // Reads every frame and answers none: no pong, no close.
        let server = try WebSocketServer { peer in while peer.receiveFrame() != nil {} }
        defer { server.stop() }
        var options = WebSocketOptions()
        options.heartbeat = WebSocketHeartbeat(every: 0.2, timeout: 0.2)
        options.closeTimeout = 60
        let socket = try await open(server, options)
        let error = try await nextError(socket, within: 10)
        guard case WebSocketError.heartbeatMissed = error else {
            throw fail("expected heartbeatMissed, got \(error)")
        }
    }

    private func refusedHandshake() async throws {
        let server = try WebSocketServer(
            handshake: { _ in
                .refuse(ServerReply(status: 401, headers: ["WWW-Authenticate": "Bearer"], body: Data("sign in".utf8)))
            },
            session: { _ in })
        defer { server.stop() }
        do {
            _ = try await Provider<ConformanceSocket>(transport: transport).webSocket(
                ConformanceSocket(baseURL: server.baseURL))
            throw fail("the refused handshake opened a socket")
        } catch let failure as WebSocketConformanceFailure {
            throw failure
        } catch {
            guard case .statusCode(let response) = error as? CourierError else {
                throw fail("expected statusCode(401), got \(error)")
            }
            try expect(response.statusCode == 401, "the status was \(response.statusCode)")
            try expect(response.headerFields["WWW-Authenticate"] == "Bearer", "the refusal's WWW-Authenticate was lost")
            try expect(
                response.data == Data("sign in".utf8), "the refusal's body was \(response.data.count) bytes, not 7")
        }
    }

    private func connectionLost() async throws {
        let server = try WebSocketServer { peer in
            // Once the socket is in use: a message, then the connection cut without a close.
            guard case .message? = peer.receive() else { return }
            peer.send(.text("one"))
            peer.cut()
        }
        defer { server.stop() }
        let socket = try await open(server)
        try await socket.send(.text("go"))
        var messages = socket.messages.makeAsyncIterator()
        let first = try await messages.next()
        try expect(first == .text("one"), "the message before the cut was \(first.map { "\($0)" } ?? "lost")")
        let error = try await nextError(socket)
        try expect((error as? TransportFailure)?.kind == .connectionLost, "expected connectionLost, got \(error)")
    }

    private func subprotocols() async throws {
        for (pick, opens) in [("b", true), ("c", false)] {
            let server = try WebSocketServer(handshake: { _ in .accept(subprotocol: pick) }, session: Self.echoing)
            defer { server.stop() }
            var options = WebSocketOptions()
            options.subprotocols = ["a", "b"]
            do {
                let socket = try await Provider<ConformanceSocket>(transport: transport).webSocket(
                    ConformanceSocket(baseURL: server.baseURL), options: options)
                try expect(opens, "a subprotocol that was not offered (\(pick)) was accepted")
                try expect(
                    socket.subprotocol == pick,
                    "the socket's subprotocol is \(socket.subprotocol ?? "none"), not \(pick)")
                let offered = server.handshakes.first?.header("Sec-WebSocket-Protocol") ?? ""
                try expect(offered.replacingOccurrences(of: " ", with: "") == "a,b", "offered \(offered), not a, b")
                await socket.close()
            } catch let failure as WebSocketConformanceFailure {
                throw failure
            } catch {
                try expect(!opens, "the socket did not open: \(error)")
                try expect(Self.isInvalidHandshake(error), "expected invalidHandshake, got \(error)")
            }
        }
    }

    private static func isInvalidHandshake(_ error: any Error) -> Bool {
        switch error {
        case WebSocketError.invalidHandshake: true
        case CourierError.transport(let inner, _), CourierError.underlying(let inner, _): isInvalidHandshake(inner)
        default: false
        }
    }

    private func slowReader() async throws {
        let sent = Locked(0)
        let server = try WebSocketServer { peer in
            for _ in 0..<64 {
                peer.send(.binary(Data(count: 1 << 20)))
                sent.withLock { $0 += 1 }
            }
            _ = peer.receive()
        }
        defer { server.stop() }
        let socket = try await open(server)
        // Nothing is read for 2 s: an engine that reads ahead of its reader lets all 64 MiB in.
        let ranAhead = await Self.eventually(2) { sent.value >= 64 }
        try expect(!ranAhead, "the server sent all 64 MiB while nothing was read: the engine reads ahead without bound")
        var count = 0
        for try await _ in socket.messages {
            count += 1
            if count == 64 { break }
        }
        try expect(count == 64, "\(count) messages of 64 arrived")
        await socket.close()
    }
}
