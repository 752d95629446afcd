import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``TransportRequest`` for a WebSocket's opening handshake asks of the engine, and where
/// the engine hands the open connection (see ``WebSocketConnection``).
///
/// The request's URL is `http:` or `https:` (the provider maps `ws:` and `wss:` to them, so that
/// cookies, trust policies and recordings treat the socket as its origin); its method is `GET`.
/// The engine writes the upgrade's own header fields (``engineFields``: `Upgrade`, `Connection`,
/// `Sec-WebSocket-Key`, `Sec-WebSocket-Version`, `Sec-WebSocket-Protocol` from ``subprotocols``,
/// `Sec-WebSocket-Extensions` for ``compression`` when it compresses), checks the server's
/// `Sec-WebSocket-Accept`, fails a 101 that chose a subprotocol or an extension it did not offer
/// (``WebSocketError/invalidHandshake(_:)``), and on a valid 101 calls ``accept(_:)``.
public final class WebSocketUpgrade: Sendable {
    /// The subprotocols the client offers, in order of preference; the server picks one.
    public let subprotocols: [String]
    /// The largest message the engine accepts, in bytes; a larger one fails
    /// ``WebSocketConnection/receive()`` with ``WebSocketError/messageTooBig(limit:)`` and the
    /// connection closes with 1009.
    public let maximumMessageSize: Int
    /// The longest a close waits for the peer's close frame before closing the connection.
    public let closeTimeout: TimeInterval
    /// The compression to offer (permessage-deflate), or `nil` for none. An engine that compresses
    /// offers it in the handshake's `Sec-WebSocket-Extensions`; one that does not offers nothing.
    public let compression: WebSocketCompression?
    /// The peer a stub engine plays: the target's ``TargetType/sampleWebSocket``.
    let script: WebSocketScript?
    /// For a relay (``relaying(_:)``): where an accepted connection goes instead of the slot.
    private let forward: (@Sendable (any WebSocketConnection) -> Void)?
    private let accepted = Locked<AcceptedConnection?>(nil)
    private let handshakeID = Locked<RequestID?>(nil)

    /// The identifier of the opening handshake's request, set by the provider.
    var requestID: RequestID? {
        get { handshakeID.value }
        set { handshakeID.withLock { $0 = newValue } }
    }

    /// Creates the upgrade of one opening handshake.
    /// - Parameters:
    ///   - subprotocols: The subprotocols offered; none by default.
    ///   - maximumMessageSize: The largest message accepted; 16 MiB by default.
    ///   - closeTimeout: The wait for the peer's close frame; 5 seconds by default.
    ///   - compression: The compression to offer; none by default.
    public init(
        subprotocols: [String] = [], maximumMessageSize: Int = 16 << 20, closeTimeout: TimeInterval = 5,
        compression: WebSocketCompression? = nil
    ) {
        self.subprotocols = subprotocols
        self.maximumMessageSize = maximumMessageSize
        self.closeTimeout = closeTimeout
        self.compression = compression
        (script, forward) = (nil, nil)
    }

    init(_ options: WebSocketOptions, script: WebSocketScript) {
        self.subprotocols = options.subprotocols
        self.maximumMessageSize = options.maximumMessageSize
        self.closeTimeout = options.closeTimeout
        self.compression = options.compression
        (self.script, forward) = (script, nil)
    }

    private init(relaying upgrade: WebSocketUpgrade, to forward: @escaping @Sendable (any WebSocketConnection) -> Void)
    {
        subprotocols = upgrade.subprotocols
        maximumMessageSize = upgrade.maximumMessageSize
        closeTimeout = upgrade.closeTimeout
        compression = upgrade.compression
        script = upgrade.script
        self.forward = forward
    }

    /// An upgrade with the same options whose accepted connection reaches this one as
    /// `transform` makes it: for a transport that wraps an engine and watches its sockets (a
    /// recorder hands the engine the relay, and gets each message).
    /// - Parameter transform: Wraps the engine's connection.
    /// - Returns: The upgrade to hand the engine.
    public func relaying(
        _ transform: @escaping @Sendable (any WebSocketConnection) -> any WebSocketConnection
    ) -> WebSocketUpgrade {
        WebSocketUpgrade(relaying: self) { [self] connection in accept(transform(connection)) }
    }

    /// Hands the open connection of a `101 Switching Protocols` to the provider; called by the
    /// engine before it returns the handshake's response. A second call closes the connection it
    /// is given (1001): an upgrade has one connection.
    /// - Parameter connection: The open socket.
    public func accept(_ connection: any WebSocketConnection) {
        if let forward { return forward(connection) }
        let taken = accepted.withLock { slot -> Bool in
            guard slot == nil else { return false }
            slot = AcceptedConnection(connection: connection)
            return true
        }
        if !taken { Task { await connection.close(code: .goingAway, reason: "") } }
    }

    /// The accepted connection, once; `nil` when none was accepted or it was taken already.
    func take() -> (any WebSocketConnection)? {
        accepted.withLock { slot in
            defer { slot = nil }
            return slot?.connection
        }
    }

    /// `request` as a socket's opening handshake: its URL's `ws:` or `wss:` made `http:` or
    /// `https:`; a method other than `GET`, a body or another scheme refused.
    static func handshake(_ request: URLRequest, task: HTTPTask) throws(WebSocketError) -> URLRequest {
        let method = request.httpMethod ?? "GET"
        guard method == "GET" else { throw .methodNotGET(method) }
        var bodiless = request.httpBody == nil && request.httpBodyStream == nil
        if case .inline = task.transportBody {} else { bodiless = false }
        guard bodiless else { throw .bodyNotAllowed }
        if let reserved = request.allHTTPHeaderFields?.keys.first(where: { engineFields.contains($0.lowercased()) }) {
            throw .reservedHeaderField(reserved)
        }
        guard let url = request.url else { return request }
        guard let mapped = httpURL(url) else { throw .unsupportedScheme(url.scheme ?? "") }
        var request = request
        if mapped != url { request.url = mapped }
        return request
    }

    /// The header fields an engine writes for an opening handshake, lowercased: a handshake
    /// whose target, plugins or adapter set one fails with
    /// ``WebSocketError/reservedHeaderField(_:)`` before anything is sent (an engine leaves out
    /// any that reach it anyway). Subprotocols and compression are offered with
    /// ``WebSocketOptions``, so that the engine checks the answer against what it offered.
    public static let engineFields: Set<String> = [
        "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "sec-websocket-extensions", "sec-websocket-accept",
    ]

    /// `url` with a WebSocket scheme (`ws:`, `wss:`) replaced by its HTTP one; `nil` for a scheme
    /// that is neither.
    static func httpURL(_ url: URL) -> URL? {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        switch parts.scheme?.lowercased() {
        case "http", "https": return url
        case "ws": parts.scheme = "http"
        case "wss": parts.scheme = "https"
        default: return nil
        }
        return parts.url
    }
}

/// A connection in an upgrade's slot.
private struct AcceptedConnection: Sendable {
    let connection: any WebSocketConnection
}
