import Foundation

/// An open WebSocket, opened by ``Provider/webSocket(_:options:)`` through the provider's
/// pipeline: send messages, read them, ping, close.
///
/// ```swift
/// let socket = try await provider.webSocket(.chat(room: 42))
/// try await socket.send(.text("hello"))
/// try await socket.send(ChatMessage(text: "hi"))  // an Encodable value, as JSON text
/// for try await message in socket.messages {
///     print(message)
/// }
/// await socket.close()
/// ```
/// ``messages`` reads from the network only as it is iterated: a slow reader slows the socket,
/// it never grows a buffer. It ends when the peer closes (``closeCode`` says how) and throws when
/// the connection is lost or the peer broke a limit. Read it from one task at a time.
///
/// The provider's plugins see each message and the close (``PluginType/didObserve(_:target:)``).
/// A socket no longer referenced closes with 1001 (going away).
public final class WebSocket: Sendable {
    /// The opening handshake's response: the `101 Switching Protocols` and its header fields.
    public let response: Response
    /// The subprotocol the server chose from ``WebSocketOptions/subprotocols``, or `nil`.
    public var subprotocol: String? { response.headerFields["Sec-WebSocket-Protocol"] }

    private let connection: any WebSocketConnection
    private let observer: WebSocketObserver
    private let options: WebSocketOptions
    private let state = Locked(SocketState())
    private let heartbeat = Locked<Task<Void, Never>?>(nil)

    init(
        connection: any WebSocketConnection, response: Response, observer: WebSocketObserver,
        options: WebSocketOptions
    ) {
        self.connection = connection
        self.response = response
        self.observer = observer
        self.options = options
        if let beat = options.heartbeat { startHeartbeat(beat) }
    }

    deinit {
        heartbeat.value?.cancel()
        guard state.value.ended == nil else { return }
        let connection = connection
        Task { await connection.close(code: .goingAway, reason: "") }
    }

    /// How the socket closed: the code and reason of the close frame (the peer's, or this side's
    /// when it closed first), or `nil` while open or when it stopped with an error.
    public var closeCode: (code: WebSocketCloseCode, reason: String)? {
        if case .closed(let code, let reason, _)? = state.value.ended { return (code, reason) }
        return nil
    }

    /// The messages the peer sends, as they are read.
    public var messages: WebSocketMessages { WebSocketMessages(socket: self) }

    /// The messages the peer sends, each decoded from its JSON (a text or binary message's bytes).
    /// - Parameters:
    ///   - type: The type of each message.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Returns: The decoded messages; a message that does not decode ends them with
    ///   ``WebSocketError/decoding(_:)``.
    public func messages<Value: Decodable & Sendable>(
        as type: Value.Type, decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingMapSequence<WebSocketMessages, Value> {
        let decoder = DecoderBox(decoder)
        return messages.map { message in
            do {
                return try decoder.decoder.decode(Value.self, from: message.data)
            } catch {
                throw WebSocketError.decoding(
                    "a message (opcode \(message.opcode), \(message.size) bytes) is not a \(Value.self): "
                        + String(describing: Swift.type(of: error)))
            }
        }
    }

    /// Sends one message.
    /// - Parameter message: The message.
    /// - Throws: ``WebSocketError/closed(_:reason:)`` after the socket closed,
    ///   ``WebSocketError/sendBufferFull(limit:)`` when ``WebSocketOptions/sendBufferLimit``
    ///   sends are waiting already, or the engine's error when the connection is lost.
    public func send(_ message: WebSocketMessage) async throws {
        try state.withLock { state in
            if let ended = state.ended { throw ended.error }
            guard state.pendingSends < options.sendBufferLimit else {
                throw WebSocketError.sendBufferFull(limit: options.sendBufferLimit)
            }
            state.pendingSends += 1
        }
        defer { state.withLock { $0.pendingSends -= 1 } }
        try await connection.send(message)
        observer.observe(.sent(message))
    }

    /// Sends `value` encoded as JSON, in a text message.
    /// - Parameters:
    ///   - value: The value.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default.
    /// - Throws: The encoder's error, or what ``send(_:)`` throws.
    public func send(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) async throws {
        let data = try encoder.encode(value)
        try await send(.text(String(decoding: data, as: UTF8.self)))
    }

    /// Sends a ping and returns when its pong arrives.
    /// - Throws: What ``send(_:)`` throws.
    public func ping() async throws {
        if let ended = state.value.ended { throw ended.error }
        try await connection.ping()
    }

    /// Closes the socket: sends the close frame, waits for the peer's (at most
    /// ``WebSocketOptions/closeTimeout``), and ends ``messages``. Closing twice does nothing.
    /// - Parameters:
    ///   - code: Why; 1000 (normal closure) by default. A code that cannot be sent (1005, 1006,
    ///     1015) is sent as 1000.
    ///   - reason: A short text for the peer (at most 123 bytes of UTF-8; longer is cut at a
    ///     character's end); empty by default.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let code = code.canBeSent ? code : .normalClosure
        let reason = Self.fitting(reason)
        let first = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            state.ended = .closed(code, reason, byPeer: false)
            return true
        }
        guard first else { return }
        heartbeat.value?.cancel()
        await connection.close(code: code, reason: reason)
        observer.observe(.closed(code, reason: reason, byPeer: false))
    }

    /// The next message, or `nil` once the socket closed; what ``messages`` iterates.
    func next() async throws -> WebSocketMessage? {
        if let ended = state.value.ended {
            if case .failed(let error) = ended { throw error }
            return nil
        }
        do {
            switch try await connection.receive() {
            case .message(let message):
                observer.observe(.received(message))
                return message
            case .closed(let code, let reason):
                await peerClosed(code, reason)
                return nil
            }
        } catch {
            try await stop(error)
            return nil
        }
    }

    /// The peer's close: answered with its code (or 1000), and recorded.
    private func peerClosed(_ code: WebSocketCloseCode, _ reason: String) async {
        let first = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            state.ended = .closed(code, reason, byPeer: true)
            return true
        }
        guard first else { return }
        heartbeat.value?.cancel()
        await connection.close(code: code.canBeSent ? code : .normalClosure, reason: "")
        observer.observe(.closed(code, reason: reason, byPeer: true))
    }

    /// The socket stopped with `error` (unless it closed first, which ends ``messages`` normally).
    private func stop(_ error: any Error) async throws {
        let recorded = state.withLock { state -> (any Error)? in
            if case .failed(let earlier)? = state.ended { return earlier }
            guard state.ended == nil else { return nil }
            state.ended = .failed(error)
            return error
        }
        guard let recorded else { return }
        heartbeat.value?.cancel()
        observer.observe(.failed(recorded))
        throw recorded
    }

    /// Pings every `beat.interval`; a pong that does not come within `beat.timeout` stops the
    /// socket with ``WebSocketError/heartbeatMissed(seconds:)`` and closes the connection.
    private func startHeartbeat(_ beat: WebSocketHeartbeat) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(max(0, beat.interval) * 1e9))
                guard !Task.isCancelled, let socket = self else { return }
                guard await socket.pingWithin(beat.timeout) else {
                    await socket.missedHeartbeat(beat.timeout)
                    return
                }
            }
        }
        heartbeat.withLock { $0 = task }
    }

    /// Whether a pong came within `timeout` seconds.
    private func pingWithin(_ timeout: TimeInterval) async -> Bool {
        let connection = connection
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await connection.ping()) != nil }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1e9))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The heartbeat found the connection lost: the socket stops and its connection closes.
    private func missedHeartbeat(_ timeout: TimeInterval) async {
        let error = WebSocketError.heartbeatMissed(seconds: timeout)
        let first = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            state.ended = .failed(error)
            return true
        }
        guard first else { return }
        observer.observe(.failed(error))
        await connection.close(code: .goingAway, reason: "")
    }

    /// `reason` cut to the 123 bytes of UTF-8 a close frame holds, at a character's end.
    static func fitting(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var fitted = ""
        for character in reason {
            guard fitted.utf8.count + String(character).utf8.count <= 123 else { break }
            fitted.append(character)
        }
        return fitted
    }
}

/// What a socket's lock guards.
private struct SocketState: Sendable {
    /// How the socket ended, once it did.
    var ended: Ending?
    /// Sends waiting for the engine.
    var pendingSends = 0
}

/// How a socket ended.
private enum Ending: @unchecked Sendable {
    case closed(WebSocketCloseCode, String, byPeer: Bool)
    case failed(any Error)

    /// The error a send or a ping gets once the socket ended.
    var error: any Error {
        switch self {
        case .closed(let code, let reason, _): WebSocketError.closed(code, reason: reason)
        case .failed(let error): error
        }
    }
}

/// A `JSONDecoder` shared by a sequence's decodings.
// @unchecked Sendable: `JSONDecoder` is used only to decode, which does not change it; it is
// `Sendable` itself on Apple platforms and recent Foundations.
private final class DecoderBox: @unchecked Sendable {
    let decoder: JSONDecoder
    init(_ decoder: JSONDecoder) { self.decoder = decoder }
}
