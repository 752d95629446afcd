import Foundation

extension NetworkLoggerPlugin {
    /// Logs a socket's message (its kind and size; its content, redacted as a body is, only with
    /// ``LogOptions/requestBody`` for a message sent and
    /// ``LogOptions/successResponseBody`` for one received) and its close or failure.
    /// - Parameters:
    ///   - activity: What the socket did.
    ///   - target: The socket's target.
    public func didObserve(_ activity: WebSocketActivity, target: any TargetType) {
        let message: String
        switch activity.kind {
        case .sent(let sent):
            message = "sent " + describe(sent, content: configuration.logOptions.contains(.requestBody))
        case .received(let received):
            message = "received " + describe(received, content: configuration.logOptions.contains(.successResponseBody))
        case .closed(let code, let reason, let byPeer):
            // A peer's words may carry anything: shown (redacted, escaped) only when contents are.
            let shown = configuration.logOptions.contains(.successResponseBody)
            let quoted =
                reason.isEmpty
                ? ""
                : shown
                    ? ": \"\(Redaction.escaped(redaction.text(reason)))\"" : ", a reason of \(reason.utf8.count) bytes"
            message = "closed \(code) by \(byPeer ? "the peer" : "this side")\(quoted)"
        case .failed(let error): message = "failed: \(Self.describe(error))"
        case .reconnected(let attempt): message = "reconnected (attempt \(attempt))"
        }
        let entry = configuration.formatter.entry("WebSocket \(activity.requestID)", message, target, activity.date)
        configuration.output(target, [entry])
    }

    /// A message's kind and size, and its content when asked.
    private func describe(_ message: WebSocketMessage, content: Bool) -> String {
        let size = "\(message.size) byte\(message.size == 1 ? "" : "s")"
        switch message {
        case .text(let text):
            guard content else { return "text, \(size)" }
            let json = text.first(where: { !$0.isWhitespace }).map { $0 == "{" || $0 == "[" } ?? false
            let type = json ? "application/json" : "text/plain"
            return "text, \(size): \(bodyText(Data(text.utf8), contentType: type, request: true))"
        case .binary(let data):
            guard content else { return "binary, \(size)" }
            return "binary, \(size): \(bodyText(data, contentType: "application/octet-stream", request: true))"
        }
    }

    /// A socket's error in words that hold no message content.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let socket as WebSocketError: socket.description
        case let transport as TransportFailure: transport.description
        case is CancellationError: "cancelled"
        default: ErrorText.of(error)
        }
    }
}
