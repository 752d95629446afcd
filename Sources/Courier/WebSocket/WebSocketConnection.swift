/// An open WebSocket as an engine gives it: the seam a ``Transport`` implements for sockets
/// (see ``TransportCapabilities/webSocket`` and ``WebSocketUpgrade``).
///
/// An engine that declares ``TransportCapabilities/webSocket`` answers a ``TransportRequest``
/// whose ``TransportRequest/webSocket`` is set with the handshake's response: on a
/// `101 Switching Protocols` it hands the connection to ``WebSocketUpgrade/accept(_:)`` before
/// returning; any other status is returned as the response it is (a refusal), with its body.
/// The provider's ``WebSocket`` then drives the connection:
/// - ``receive()`` is called by one reader at a time (the provider's ``WebSocket`` makes its
///   readers take turns; a reader cancelled while it waits ends its call before the next one
///   starts) and reads from the network only then: a
///   reader that stops asking stops the reading (the engine's buffer stays within
///   ``WebSocketUpgrade/maximumMessageSize`` plus a few reads of the network). The engine joins fragments, answers
///   pings, fails text that is not UTF-8 (closing with 1007) and a message over the limit
///   (closing with 1009), and fails the connection on a masked frame from the server (1002).
/// - ``send(_:)`` returns once the message is written or within the engine's bounded buffer;
///   it waits (never grows without bound) when the peer reads slowly.
/// - ``close(code:reason:)`` sends the close frame, waits for the peer's close (at most
///   ``WebSocketUpgrade/closeTimeout``), then closes the connection. It may be called more than
///   once, and after the peer closed.
/// - ``abort()`` ends a connection the heartbeat found dead, without the close handshake.
public protocol WebSocketConnection: Sendable {
    /// Sends one message, whole.
    /// - Parameter message: The message.
    /// - Throws: ``WebSocketError/closed(_:reason:)`` after a close, or a ``TransportFailure``
    ///   when the connection is lost.
    func send(_ message: WebSocketMessage) async throws

    /// The next message, or the peer's close.
    /// - Returns: A whole message, or ``WebSocketEvent/closed(_:reason:)`` once the peer closed.
    /// - Throws: A ``WebSocketError`` when the peer broke the protocol or a limit, a
    ///   ``TransportFailure`` (``TransportFailure/Kind/connectionLost``) when the connection was
    ///   lost without a close frame.
    func receive() async throws -> WebSocketEvent

    /// Sends a ping and returns when its pong arrives.
    /// - Throws: What ``send(_:)`` throws.
    func ping() async throws

    /// Closes the socket with `code` and `reason` (at most 123 bytes of UTF-8).
    /// - Parameters:
    ///   - code: A code that ``WebSocketCloseCode/canBeSent``.
    ///   - reason: A short text for the peer.
    func close(code: WebSocketCloseCode, reason: String) async

    /// Ends a connection found dead (a heartbeat's pong that did not come): sends a close frame
    /// with 1001 if it can, and closes the connection at once, without waiting for the peer's
    /// close; a waiting ``receive()`` then fails with ``TransportFailure/Kind/connectionLost``.
    /// The default implementation calls ``close(code:reason:)``, which waits up to
    /// ``WebSocketUpgrade/closeTimeout``: an engine implements this to end sooner.
    func abort() async
}

extension WebSocketConnection {
    /// Calls ``close(code:reason:)`` with 1001: an engine without a quicker way.
    public func abort() async {
        await close(code: .goingAway, reason: "")
    }
}

/// What ``WebSocketConnection/receive()`` returns: a message, or the peer's close.
public enum WebSocketEvent: Sendable, Hashable {
    /// A whole message.
    case message(WebSocketMessage)
    /// The peer closed with this code (``WebSocketCloseCode/noStatusReceived`` when its close
    /// frame carried none) and reason.
    case closed(WebSocketCloseCode, reason: String)
}
