/// Why a WebSocket closed: the status code of its close frame (RFC 6455 §7.4).
///
/// ```swift
/// await socket.close(code: .normalClosure)
/// await socket.close(code: .application(4001)!, reason: "signed out")
/// ```
/// Codes 1005, 1006 and 1015 are never sent: they describe a close without a code, a connection
/// lost without a close frame, and a failed TLS handshake. ``canBeSent`` tells which codes a
/// client may send.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code's number.
    public let rawValue: UInt16

    /// Creates a close code from its number.
    /// - Parameter rawValue: The number, as it travels in a close frame.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection was fulfilled. Never followed by a reconnection.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: an endpoint is going away (a server shutting down, a page left).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: the peer sent a kind of data the endpoint cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: the close frame carried no code. Never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection was lost without a close frame. Never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a message's data was not consistent with its type (text that is not UTF-8).
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client needed an extension the server did not agree to.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition.
    public static let internalServerError = WebSocketCloseCode(rawValue: 1011)

    /// An application's own code, 4000 to 4999 (private use); `nil` outside that range.
    /// - Parameter code: The number.
    /// - Returns: The close code, or `nil`.
    public static func application(_ code: UInt16) -> WebSocketCloseCode? {
        (4000...4999).contains(code) ? WebSocketCloseCode(rawValue: code) : nil
    }

    /// Whether a close frame may carry this code: 1000–1003, 1007–1011 and 3000–4999.
    public var canBeSent: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }

    /// The number and, for a code RFC 6455 defines, its name: `1000 (normal closure)`.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
            1005: "no status received", 1006: "abnormal closure", 1007: "invalid payload",
            1008: "policy violation", 1009: "message too big", 1010: "mandatory extension",
            1011: "internal server error",
        ]
        return names[rawValue].map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
