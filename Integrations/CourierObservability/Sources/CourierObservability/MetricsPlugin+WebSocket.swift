import Courier
import Foundation
import Metrics

extension MetricsPlugin {
    /// Counts a WebSocket's messages and bytes, reconnections, closes and failures:
    ///
    /// | Metric | Kind | Dimensions |
    /// |---|---|---|
    /// | `courier.websocket.messages` | counter | `courier.target`, `courier.websocket.direction` (`sent`, `received`), `websocket.opcode` (`text`, `binary`) |
    /// | `courier.websocket.bytes` | counter, bytes of payload | the same |
    /// | `courier.websocket.reconnections` | counter | `courier.target` |
    /// | `courier.websocket.closes` | counter | `courier.target`, `websocket.close.code`, `courier.websocket.closed_by` (`peer`, `client`) |
    /// | `courier.websocket.failures` | counter | `courier.target`, `error.type` |
    ///
    /// OpenTelemetry has no conventions for WebSockets; the handshake is an HTTP client request
    /// and is measured as one (`http.client.request.duration` with status 101).
    /// - Parameters:
    ///   - activity: What the socket did.
    ///   - target: The socket's target.
    public func didObserve(_ activity: WebSocketActivity, target: any TargetType) {
        guard !isNoOp else { return }
        let name = ("courier.target", handles.names.name(of: target))
        switch activity.kind {
        case .sent(let message), .received(let message):
            let direction: String
            if case .sent = activity.kind { direction = "sent" } else { direction = "received" }
            let dimensions = [
                name, ("courier.websocket.direction", direction),
                ("websocket.opcode", message.opcode == 1 ? "text" : "binary"),
            ]
            handles.counter("courier.websocket.messages", dimensions).increment()
            handles.counter("courier.websocket.bytes", dimensions).increment(by: Int64(message.size))
        case .reconnected:
            handles.counter("courier.websocket.reconnections", [name]).increment()
        case .closed(let code, _, let byPeer):
            handles.counter(
                "courier.websocket.closes",
                [
                    name, ("websocket.close.code", "\(code.rawValue)"),
                    ("courier.websocket.closed_by", byPeer ? "peer" : "client"),
                ]
            ).increment()
        case .failed(let error):
            handles.counter("courier.websocket.failures", [name, ("error.type", WebSocketLabels.errorType(error))])
                .increment()
        }
    }
}
