import Foundation

/// What a plugin's ``PluginType/didObserve(_:target:)-(WebSocketActivity,_)`` sees of an open ``WebSocket``: each
/// message sent or received, and its close. Observation only.
///
/// A logger shows a message's opcode and size; its content only when asked (``NetworkLoggerPlugin``
/// logs it as it logs bodies, redacted).
public struct WebSocketActivity: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// This side sent the message.
        case sent(WebSocketMessage)
        /// The peer sent the message.
        case received(WebSocketMessage)
        /// The socket closed: with this code and reason, from the peer's close frame
        /// (`byPeer`) or this side's.
        case closed(WebSocketCloseCode, reason: String, byPeer: Bool)
        /// The socket stopped with this error (the connection lost, a limit, the heartbeat).
        case failed(any Error)
        /// The socket opened again, on this reconnection of the current run of failures
        /// (``WebSocketReconnection``), before its `onReconnect` ran.
        case reconnected(attempt: Int)
    }

    /// What happened.
    public let kind: Kind
    /// The identifier of the request that opened the socket (its opening handshake).
    public let requestID: RequestID
    /// When it happened.
    public let date: Date

    /// Creates an observation.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - requestID: The opening handshake's request.
    ///   - date: When; now by default.
    public init(_ kind: Kind, requestID: RequestID, date: Date = Date()) {
        self.kind = kind
        self.requestID = requestID
        self.date = date
    }
}
