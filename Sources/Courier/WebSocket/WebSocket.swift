import Foundation

/// An open WebSocket, opened by ``Provider/webSocket(_:options:)`` through the provider's
/// pipeline: send messages, read them, ping, close.
///
/// ```swift
/// let socket = try await provider.webSocket(.chat(room: 42))
/// let reader = Task {
///     for try await message in socket.messages { print(message) }  // until either side closes
/// }
/// try await socket.send(.text("hello"))
/// try await socket.send(ChatMessage(text: "hi"))  // an Encodable value, as JSON text
/// await socket.close()
/// try await reader.value
/// ```
/// ``messages`` reads from the network only as it is iterated: a slow reader slows the socket,
/// it never grows a buffer. It ends when the peer closes (``closeCode`` says how) and throws when
/// the connection is lost or the peer broke a limit, unless ``WebSocketOptions/reconnection``
/// opens it again. Read it from one task at a time.
///
/// The provider's plugins see each message and the close (``PluginType/didObserve(_:target:)-(WebSocketActivity,_)``).
/// A socket no longer referenced closes with 1001 (going away).
public final class WebSocket: Sendable {
    /// The opening handshake's response (the latest reconnection's): the
    /// `101 Switching Protocols` and its header fields.
    public var response: Response { state.withLock({ $0.response }) }
    /// The subprotocol the server chose from ``WebSocketOptions/subprotocols``, or `nil`.
    public var subprotocol: String? { response.headerFields["Sec-WebSocket-Protocol"] }
    /// Whether the server agreed to compress messages (``WebSocketOptions/compression``): its
    /// answer named permessage-deflate.
    public var isCompressed: Bool {
        let extensions = response.headerFields["Sec-WebSocket-Extensions"] ?? ""
        return extensions.split(separator: ",").contains { element in
            let name = element.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            return name.lowercased() == "permessage-deflate"
        }
    }

    let observer: WebSocketObserver
    /// The readers' turns (``next()``).
    private let readers = AsyncTurn()
    let options: WebSocketOptions
    /// Opens the socket's target again, through the whole pipeline (a reconnection).
    let reopen: @Sendable () async throws(CourierError) -> WebSocketOpening
    let state: Locked<SocketState>
    let heartbeat = Locked<Task<Void, Never>?>(nil)

    init(
        _ opening: WebSocketOpening, observer: WebSocketObserver, options: WebSocketOptions,
        reopen: @escaping @Sendable () async throws(CourierError) -> WebSocketOpening
    ) {
        self.state = Locked(SocketState(opening))
        self.observer = observer
        self.options = options
        self.reopen = reopen
        if let beat = options.heartbeat { startHeartbeat(beat) }
    }

    deinit {
        heartbeat.value?.cancel()
        let (ended, connection) = state.withLock { ($0.ended, $0.connection) }
        guard ended == nil else { return }
        observer.observe(.closed(.goingAway, reason: "", byPeer: false), state)
        Task { await connection.close(code: .goingAway, reason: "") }
    }

    /// How the socket closed: the code and reason of the close frame (the peer's, or this side's
    /// when it closed first), or `nil` while open or when it stopped with an error.
    public var closeCode: (code: WebSocketCloseCode, reason: String)? {
        if case .closed(let code, let reason, _)? = state.withLock({ $0.ended }) { return (code, reason) }
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

    /// Sends one message; while the socket reconnects, waits for it first (sends that waited go
    /// out in the order they were made, after ``WebSocketReconnection/onReconnect``'s).
    ///
    /// It returns once the engine has the message (written, or in its bounded buffer), not once
    /// the peer has it: a connection lost afterwards (or found dead by the heartbeat) loses it
    /// without an error. A message that
    /// must arrive needs an acknowledgement in the app's protocol and a resend from
    /// ``WebSocketReconnection/onReconnect``.
    /// - Parameter message: The message.
    /// - Throws: ``WebSocketError/closed(_:reason:)`` after the socket closed,
    ///   ``WebSocketError/sendBufferFull(limit:)`` when ``WebSocketOptions/sendBufferLimit``
    ///   sends are waiting already, the error that ended the socket, or the engine's error when
    ///   the connection is lost (the message is not sent again).
    public func send(_ message: WebSocketMessage) async throws {
        let ready = try reserveSend()
        defer { state.withLock { $0.pendingSends -= 1 } }
        if let ready {
            try await ready.send(message)
        } else {
            let (connection, turn) = try await openConnection()
            defer { if turn { passTurn() } }
            try await connection.send(message)
        }
        observer.observe(.sent(message), state)
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
        let ready = try reserveSend()
        defer { state.withLock { $0.pendingSends -= 1 } }
        if let ready { return try await ready.ping() }
        let (connection, turn) = try await openConnection()
        if turn { passTurn() }
        try await connection.ping()
    }

    /// Closes the socket: sends the close frame, waits for the peer's (at most
    /// ``WebSocketOptions/closeTimeout``), and ends ``messages``. Closing twice does nothing; a
    /// socket closed while it reconnects stops reconnecting.
    /// - Parameters:
    ///   - code: Why; 1000 (normal closure) by default. A code that cannot be sent (1005, 1006,
    ///     1015) is sent as 1000.
    ///   - reason: A short text for the peer (at most 123 bytes of UTF-8; longer is cut at a
    ///     character's end); empty by default.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let code = code.canBeSent ? code : .normalClosure
        let reason = Self.fitting(reason)
        guard let connection = end(.closed(code, reason, byPeer: false)) else { return }
        await connection.close(code: code, reason: reason)
        observer.observe(.closed(code, reason: reason, byPeer: false), state)
    }

    /// Counts one more send or ping waiting, within ``WebSocketOptions/sendBufferLimit``, and
    /// returns the connection when it can be used at once (no reconnection under way, no sends
    /// waiting for their turn): in one critical section, since a socket's sends and its reader
    /// share the lock. `nil` sends the caller to ``openConnection()``.
    private func reserveSend() throws -> (any WebSocketConnection)? {
        try Task.checkCancellation()
        return try state.withLock { state in
            if let ended = state.ended { throw ended.error }
            guard state.pendingSends < options.sendBufferLimit else {
                throw WebSocketError.sendBufferFull(limit: options.sendBufferLimit)
            }
            state.pendingSends += 1
            return state.reconnecting || state.releasing ? nil : state.connection
        }
    }

    /// The next message, or `nil` once the socket closed; what ``messages`` iterates. Readers
    /// take turns (two loops over ``messages`` share its messages, in order), so that an engine's
    /// ``WebSocketConnection/receive()`` never has two callers at once.
    func next() async throws -> WebSocketMessage? {
        try await readers.acquire()
        defer { readers.release() }
        return try await read()
    }

    /// ``next()`` in the reader's turn.
    private func read() async throws -> WebSocketMessage? {
        while true {
            let (ended, connection) = state.withLock { ($0.ended, $0.connection) }
            switch ended {
            case .failed(let error)?: throw error
            case .closed?: return nil
            case nil: break
            }
            let received: Result<WebSocketEvent, any Error>
            do {
                received = .success(try await connection.receive())
            } catch {
                received = .failure(error)
            }
            // Ended meanwhile (closed by this side, or a missed heartbeat): that is the end. A
            // message counts the connection as working (read with the end, in one critical
            // section: the senders share the lock).
            let endedMeanwhile = state.withLock { state -> Ending? in
                if state.ended == nil, case .success(.message) = received { state.reconnectionsInRow = 0 }
                return state.ended
            }
            switch endedMeanwhile {
            case .failed(let error)?: throw error
            case .closed?: return nil
            case nil: break
            }
            let event: WebSocketEvent
            switch received {
            case .success(let success): event = success
            case .failure(let error):
                // A reader whose task was cancelled stops reading; the socket stays open.
                if error is CancellationError { throw error }
                guard try await reconnects(after: error, from: connection) else {
                    if case .closed? = state.withLock({ $0.ended }) { return nil }
                    try await stop(error)
                }
                continue
            }
            switch event {
            case .message(let message):
                // The engine enforces the limit as it reads; an engine that does not is held to it here.
                guard message.size <= options.maximumMessageSize else {
                    await connection.close(code: .messageTooBig, reason: "")
                    try await stop(WebSocketError.messageTooBig(limit: options.maximumMessageSize))
                }
                observer.observe(.received(message), state)
                return message
            case .closed(let code, let reason):
                let lost = WebSocketError.closed(code, reason: reason)
                if WebSocketReconnection.reconnectingCodes.contains(code.rawValue),
                    try await reconnects(after: lost, from: connection)
                {
                    continue
                }
                if case .closed? = state.withLock({ $0.ended }) { return nil }
                await peerClosed(code, reason, connection)
                return nil
            }
        }
    }

    /// Records how the socket ended, once; returns its connection the first time, `nil` after.
    func end(_ ending: Ending) -> (any WebSocketConnection)? {
        let (connection, waiters, backOff) = state.withLock {
            state -> ((any WebSocketConnection)?, [CheckedContinuation<Bool, Never>], CheckedContinuation<Void, Never>?)
            in
            guard state.ended == nil else { return (nil, [], nil) }
            state.ended = ending
            defer { (state.waiters, state.backOff, state.releasing) = ([:], nil, false) }
            return (state.connection, Array(state.waiters.values), state.backOff)
        }
        guard let connection else { return nil }
        heartbeat.value?.cancel()
        for waiter in waiters { waiter.resume(returning: false) }
        backOff?.resume()
        return connection
    }

    /// The peer's close: answered with its code (or 1000), and recorded.
    private func peerClosed(_ code: WebSocketCloseCode, _ reason: String, _ connection: any WebSocketConnection) async {
        guard end(.closed(code, reason, byPeer: true)) != nil else { return }
        await connection.close(code: code.canBeSent ? code : .normalClosure, reason: "")
        observer.observe(.closed(code, reason: reason, byPeer: true), state)
    }

    /// Stops the socket with `error` (or the error it ended with first), closes its connection,
    /// and throws it.
    func stop(_ error: any Error) async throws -> Never {
        if let connection = end(.failed(error)) {
            observer.observe(.failed(error), state)
            await connection.close(code: .goingAway, reason: "")
        }
        if case .failed(let first)? = state.withLock({ $0.ended }) { throw first }
        throw error
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

/// A `JSONDecoder` shared by a sequence's decodings.
// @unchecked Sendable: `JSONDecoder` is used only to decode, which does not change it; it is
// `Sendable` itself on Apple platforms and recent Foundations.
private final class DecoderBox: @unchecked Sendable {
    let decoder: JSONDecoder
    init(_ decoder: JSONDecoder) { self.decoder = decoder }
}
