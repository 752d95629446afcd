import Foundation

/// What a streamed request's pipeline hands to its caller besides the response: the body of the
/// attempt whose head was accepted and the request's identifier, and what the request asks for
/// beyond its target (the `Last-Event-ID` of a Server-Sent Events reconnection).
final class StreamHandoff: Sendable {
    private struct State {
        var body: TransportBody?
        var requestID = RequestID(sequence: 0)
    }

    /// Header fields added to the target's, for this request only.
    let extraHeaders: [String: String]
    private let state = Locked(State())

    init(extraHeaders: [String: String] = [:]) {
        self.extraHeaders = extraHeaders
    }

    /// The request's identifier, once the pipeline has given it one.
    var requestID: RequestID {
        get { state.value.requestID }
        set { state.withLock { $0.requestID = newValue } }
    }

    /// Keeps the accepted attempt's body for the caller.
    func store(_ transportBody: TransportBody) {
        state.withLock { $0.body = transportBody }
    }

    /// The accepted attempt's body, once.
    func take() -> TransportBody? {
        state.withLock { $0.body.take() }
    }
}
