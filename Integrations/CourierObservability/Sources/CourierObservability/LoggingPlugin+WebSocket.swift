import Courier
import Foundation
import Logging

extension LoggingPlugin {
    /// Logs a WebSocket's message (`websocket.opcode`, `websocket.message.size`, never its
    /// content), its reconnections, and its close (`websocket.close.code`) or failure
    /// (`error.type`).
    /// - Parameters:
    ///   - activity: What the socket did.
    ///   - target: The socket's target.
    public func didObserve(_ activity: WebSocketActivity, target: any TargetType) {
        var metadata: Logger.Metadata = [
            "courier.request_id": "\(activity.requestID.sequence)",
            "courier.target": .string(RequestLabels.target(target)),
        ]
        let level: Logger.Level
        let message: Logger.Message
        switch activity.kind {
        case .sent(let sent), .received(let sent):
            level = levels.webSocketMessage
            metadata["websocket.opcode"] = .string(sent.opcode == 1 ? "text" : "binary")
            metadata["websocket.message.size"] = "\(sent.size)"
            if case .sent = activity.kind {
                message = "websocket message sent"
            } else {
                message = "websocket message received"
            }
        case .closed(let code, _, let byPeer):
            level = levels.webSocketClosed
            metadata["websocket.close.code"] = "\(code.rawValue)"
            message = byPeer ? "websocket closed by the peer" : "websocket closed"
        case .reconnected(let attempt):
            level = levels.webSocketClosed
            metadata["courier.attempt"] = "\(attempt)"
            message = "websocket reconnected"
        case .failed(let error):
            level = levels.webSocketFailed
            metadata["error.type"] = .string(WebSocketLabels.errorType(error))
            message = "websocket failed"
        }
        guard let logger = logger(for: level) else { return }
        logger.log(level: level, message, metadata: metadata)
    }
}

/// Bounded labels of a socket's activity.
enum WebSocketLabels {
    /// The kind of error that stopped a socket: a `WebSocketError` case, a transport failure's
    /// kind, or the error's type.
    static func errorType(_ error: any Error) -> String {
        switch error {
        case let failure as TransportFailure: failure.kind.rawValue
        case let courier as CourierError: RequestLabels.errorType(courier)
        case let socket as WebSocketError: caseName(socket)
        default: String(describing: type(of: error))
        }
    }

    /// The name of `error`'s case, without its values.
    private static func caseName(_ error: WebSocketError) -> String {
        switch error {
        case .methodNotGET: "methodNotGET"
        case .bodyNotAllowed: "bodyNotAllowed"
        case .unsupportedScheme: "unsupportedScheme"
        case .reservedHeaderField: "reservedHeaderField"
        case .notUpgraded: "notUpgraded"
        case .invalidHandshake: "invalidHandshake"
        case .messageTooBig: "messageTooBig"
        case .invalidUTF8: "invalidUTF8"
        case .protocolViolation: "protocolViolation"
        case .closed: "closed"
        case .heartbeatMissed: "heartbeatMissed"
        case .sendBufferFull: "sendBufferFull"
        case .decoding: "decoding"
        }
    }
}
