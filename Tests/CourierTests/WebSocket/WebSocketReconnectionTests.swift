import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sockets that open again after a lost connection, each time through the whole pipeline.
@Suite("WebSocket reconnection")
struct WebSocketReconnectionTests {
    /// A peer that greets each connection, drops it on "die", closes it with the code a message
    /// names ("close 1001"), and echoes the rest; the handshake answers in turn with `statuses`
    /// (101 once they run out) and records the token each one carried.
    static func peer(_ statuses: [Int] = [], tokens: Locked<[String]>) -> WebSocketScript {
        let remaining = Locked(statuses)
        return WebSocketScript(
            handshake: { request in
                tokens.withLock { $0.append(request.value(forHTTPHeaderField: "Authorization") ?? "") }
                let status = remaining.withLock { $0.isEmpty ? 101 : $0.removeFirst() }
                return status == 101
                    ? .accept() : .refuse(status: status, headerFields: status == 503 ? ["Retry-After": "0"] : [:])
            },
            onOpen: [.send(.text("hello"))],
            reply: { message in
                guard case .text(let text) = message else { return [.send(message)] }
                if text == "die" { return [.drop] }
                if text.hasPrefix("close "), let code = UInt16(text.dropFirst(6)) {
                    return [.close(WebSocketCloseCode(rawValue: code))]
                }
                return [.send(message)]
            })
    }

    /// A stubbed provider signing each handshake with a new token, recording every hook.
    static func provider(_ recorder: CallRecorder, delay: TimeInterval = 0) -> Provider<SocketTarget> {
        let token = Signer(issued: Locked(0))
        return Provider<SocketTarget>(
            stubClosure: { _ in delay > 0 ? .delayed(seconds: delay) : .immediate },
            plugins: [token, RecordingPlugin("P", recorder: recorder)])
    }

    static func options(attempts: Int = 3, onReconnect: (@Sendable (WebSocket) async throws -> Void)? = nil)
        -> WebSocketOptions
    {
        var options = WebSocketOptions()
        options.reconnection = WebSocketReconnection(
            delay: 0.01, maximumAttempts: attempts, maximumDelay: 0.05, onReconnect: onReconnect)
        return options
    }

    @Test("a dropped connection opens again with a fresh token; the hook resubscribes before anything else")
    func dropped() async throws {
        let recorder = CallRecorder()
        let tokens = Locked<[String]>([])
        let options = Self.options { socket in try await socket.send(.text("resubscribe")) }
        let socket = try await Self.provider(recorder).webSocket(
            SocketTarget(script: Self.peer(tokens: tokens)), options: options)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text("die"))
        #expect(try await messages.next() == .text("hello"))
        #expect(try await messages.next() == .text("resubscribe"))
        #expect(tokens.value == ["Bearer token-1", "Bearer token-2"])
        #expect(recorder.events.contains(.webSocket("P", .reconnected(attempt: 1))))
        #expect(recorder.events.filter { $0 == .willSend("P", attempt: 1) }.count == 2)
        await socket.close()
    }

    @Test("refusals worth another try (503 with Retry-After) are retried; the socket opens on the third")
    func refusedThenOpened() async throws {
        let tokens = Locked<[String]>([])
        let socket = try await Self.provider(CallRecorder()).webSocket(
            SocketTarget(script: Self.peer([101, 503, 503], tokens: tokens)), options: Self.options(attempts: 5))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text("die"))
        #expect(try await messages.next() == .text("hello"))
        #expect(tokens.value.count == 4)
        await socket.close()
    }

    @Test("a refusal not worth another try (403) ends the socket with its response")
    func forbidden() async throws {
        let tokens = Locked<[String]>([])
        let socket = try await Self.provider(CallRecorder()).webSocket(
            SocketTarget(script: Self.peer([101, 403], tokens: tokens)), options: Self.options())
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await socket.send(.text("die"))
        let error = await #expect(throws: CourierError.self) { try await messages.next() }
        #expect(error?.response?.statusCode == 403)
        await #expect(throws: CourierError.self) { try await socket.send(.text("late")) }
    }

    @Test("after the last attempt the socket ends with the last failure")
    func exhausted() async throws {
        let tokens = Locked<[String]>([])
        let socket = try await Self.provider(CallRecorder()).webSocket(
            SocketTarget(script: Self.peer([101, 503, 503, 503], tokens: tokens)), options: Self.options(attempts: 2))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await socket.send(.text("die"))
        let error = await #expect(throws: CourierError.self) { try await messages.next() }
        #expect(error?.response?.statusCode == 503)
        #expect(tokens.value.count == 3)
    }

    @Test("the server's 1001 reconnects; its 1000 and 1008 end the messages and never reconnect")
    func closeCodes() async throws {
        for (code, reconnects) in [(1001, true), (1000, false), (1008, false)] {
            let tokens = Locked<[String]>([])
            let socket = try await Self.provider(CallRecorder()).webSocket(
                SocketTarget(script: Self.peer(tokens: tokens)), options: Self.options())
            var messages = socket.messages.makeAsyncIterator()
            _ = try await messages.next()
            try await socket.send(.text("close \(code)"))
            if reconnects {
                #expect(try await messages.next() == .text("hello"))
                await socket.close()
            } else {
                #expect(try await messages.next() == nil)
                #expect(socket.closeCode?.code.rawValue == UInt16(code))
            }
            #expect(tokens.value.count == (reconnects ? 2 : 1), "close \(code)")
        }
    }

    @Test("a message sent while the socket reconnects waits, then goes out after the hook's")
    func queuedWhileReconnecting() async throws {
        let recorder = CallRecorder()
        let tokens = Locked<[String]>([])
        let options = Self.options { socket in try await socket.send(.text("resubscribe")) }
        let socket = try await Self.provider(recorder, delay: 0.2).webSocket(
            SocketTarget(script: Self.peer(tokens: tokens)), options: options)
        let reader = Task {
            var received: [WebSocketMessage] = []
            for try await message in socket.messages {
                received.append(message)
                if received.count == 4 { break }
            }
            return received
        }
        try await socket.send(.text("die"))
        #expect(await recorder.wait(for: .willSend("P", attempt: 1), count: 2))
        try await socket.send(.text("queued"))
        let received = try await reader.value
        #expect(received == [.text("hello"), .text("hello"), .text("resubscribe"), .text("queued")])
        await socket.close()
    }

    @Test("without a policy a dropped connection ends the messages with connectionLost, and nothing reopens")
    func off() async throws {
        let tokens = Locked<[String]>([])
        let socket = try await Self.provider(CallRecorder()).webSocket(SocketTarget(script: Self.peer(tokens: tokens)))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await socket.send(.text("die"))
        let error = await #expect(throws: TransportFailure.self) { try await messages.next() }
        #expect(error?.kind == .connectionLost)
        #expect(tokens.value.count == 1)
    }
}

/// Signs each attempt with a new token: token-1, token-2…
struct Signer: PluginType {
    let issued: Locked<Int>

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        let number = issued.withLock { count in
            count += 1
            return count
        }
        request.setValue("Bearer token-\(number)", forHTTPHeaderField: "Authorization")
        return request
    }
}

/// Heartbeats against a peer that never answers a ping.
@Suite("WebSocket heartbeat")
struct WebSocketHeartbeatTests {
    static func silentPeer(_ tokens: Locked<[String]>) -> SocketTarget {
        var script = WebSocketReconnectionTests.peer(tokens: tokens)
        script.answersPings = false
        return SocketTarget(script: script)
    }

    @Test("a pong that does not come ends the messages with heartbeatMissed, and the plugins see it")
    func missed() async throws {
        let recorder = CallRecorder()
        var options = WebSocketOptions()
        options.heartbeat = WebSocketHeartbeat(every: 0.02, timeout: 0.05)
        let socket = try await WebSocketReconnectionTests.provider(recorder).webSocket(
            Self.silentPeer(Locked([])), options: options)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        // The reader waits in `receive` when the heartbeat gives up: it gets the heartbeat's error.
        await #expect(throws: WebSocketError.heartbeatMissed(seconds: 0.05)) { try await messages.next() }
        #expect(recorder.events.contains(.webSocket("P", .failed)))
    }

    @Test("with a reconnection policy, a missed pong opens the socket again")
    func missedThenReconnected() async throws {
        let tokens = Locked<[String]>([])
        var options = WebSocketReconnectionTests.options(attempts: 3)
        options.heartbeat = WebSocketHeartbeat(every: 0.02, timeout: 0.05)
        let socket = try await WebSocketReconnectionTests.provider(CallRecorder()).webSocket(
            Self.silentPeer(tokens), options: options)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        #expect(try await messages.next() == .text("hello"))
        #expect(tokens.value.count >= 2)
        await socket.close()
    }
}
