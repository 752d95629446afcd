import Foundation

/// What a streamed request's pipeline hands to its caller besides the response: the body of the
/// attempt whose head was accepted, and what the request asks for beyond its target (the
/// `Last-Event-ID` of a Server-Sent Events reconnection).
final class StreamHandoff: Sendable {
    /// Header fields added to the target's, for this request only.
    let extraHeaders: [String: String]
    private let body = Locked<TransportBody?>(nil)

    init(extraHeaders: [String: String] = [:]) {
        self.extraHeaders = extraHeaders
    }

    /// Keeps the accepted attempt's body for the caller.
    func store(_ transportBody: TransportBody) {
        body.withLock { $0 = transportBody }
    }

    /// The accepted attempt's body, once.
    func take() -> TransportBody? {
        body.withLock { $0.take() }
    }
}
