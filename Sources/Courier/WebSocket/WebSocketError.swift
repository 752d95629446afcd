import Foundation

/// Why a WebSocket could not open, or stopped.
///
/// A refused upgrade (a 401, a 429, a 5xx) is not one of these: it is the response it is, and
/// fails like a request's (``CourierError/statusCode(_:)``), with validation, the interceptor's
/// `retry` and the resilience policy's rules.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The target's method is not `GET`: a WebSocket opens with a `GET` (RFC 6455 §4.1).
    case methodNotGET(String)
    /// The target's task carries a body: an opening handshake has none.
    case bodyNotAllowed
    /// The target's URL is not `ws:`, `wss:`, `http:` or `https:`.
    case unsupportedScheme(String)
    /// The handshake carries a header field the engine writes (``WebSocketUpgrade/engineFields``),
    /// set by the target, a plugin or an adapter: subprotocols and compression are
    /// ``WebSocketOptions``' to offer. Nothing was sent.
    case reservedHeaderField(String)
    /// The engine answered 101 but handed over no connection (a custom transport that does not
    /// call ``WebSocketUpgrade/accept(_:)``), or a plugin's `process` turned a refusal into a success.
    case notUpgraded(status: Int)
    /// The server's 101 did not prove it read the handshake (`Sec-WebSocket-Accept`), chose a
    /// subprotocol the client did not offer, or an extension it did not ask for.
    case invalidHandshake(String)
    /// A message was larger than the limit; the connection was closed with 1009.
    case messageTooBig(limit: Int)
    /// A text message was not UTF-8; the connection was closed with 1007.
    case invalidUTF8
    /// The peer broke the protocol (a masked frame from a server, a fragmented control frame, a
    /// reserved opcode); the connection was closed with 1002.
    case protocolViolation(String)
    /// The socket is closed (by this side or the peer, with this code): nothing more is sent.
    case closed(WebSocketCloseCode, reason: String)
    /// No pong came within the heartbeat's limit: the connection was taken as lost.
    case heartbeatMissed(seconds: TimeInterval)
    /// The buffer of messages waiting to be sent was full (``WebSocketOptions/sendBufferLimit``).
    case sendBufferFull(limit: Int)
    /// The decoded value of a message could not be made: the message's opcode and size (never
    /// its content) and the decoder's error.
    case decoding(String)

    /// A sentence describing the problem; never a message's content, nor the text of a close
    /// reason (a peer's words may carry anything: ``closed(_:reason:)`` holds it).
    public var description: String {
        switch self {
        case .methodNotGET(let method):
            "A WebSocket opens with GET; the target's method is \(Redaction.escaped(method))."
        case .bodyNotAllowed: "A WebSocket's opening handshake has no body: give the target a task without one."
        case .unsupportedScheme(let scheme):
            "A WebSocket's URL is ws:, wss:, http: or https:, not \(Redaction.escaped(scheme)):."
        case .reservedHeaderField(let name):
            "The handshake sets \(Redaction.escaped(name)), a field the engine writes for a WebSocket: "
                + "offer subprotocols and compression with WebSocketOptions."
        case .notUpgraded(let status):
            "The handshake answered \(status) but no WebSocket connection was handed over."
        case .invalidHandshake(let problem): "The server's 101 is not a valid WebSocket handshake: \(problem)."
        case .messageTooBig(let limit):
            "A message was larger than the limit of \(limit) bytes; the socket was closed with 1009."
        case .invalidUTF8: "A text message was not valid UTF-8; the socket was closed with 1007."
        case .protocolViolation(let problem):
            "The peer broke the WebSocket protocol (\(problem)); the socket was closed with 1002."
        case .closed(let code, let reason):
            "The WebSocket is closed (\(code)\(reason.isEmpty ? "" : ", with a reason of \(reason.utf8.count) bytes"))."
        case .heartbeatMissed(let seconds):
            "No pong came within \(seconds) s of a ping: the connection was taken as lost."
        case .sendBufferFull(let limit): "The send buffer was full (\(limit) messages)."
        case .decoding(let problem): "A message could not be decoded: \(problem)."
        }
    }
}
