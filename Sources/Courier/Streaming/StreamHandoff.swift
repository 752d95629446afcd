import Foundation

/// What a streamed request's pipeline hands to its caller besides the response (the body of the
/// attempt whose head was accepted, its time limits, the request's identifier), and what the
/// request asks for beyond its target: header fields (an event source's `Last-Event-ID`, and the
/// `Accept` and `Cache-Control` it sends unless the target has its own), its limits, and which
/// connection of an event source it is.
final class StreamHandoff: Sendable {
    private struct State {
        var body: TransportBody?
        var timeouts: StreamTimeouts?
        var requestID = RequestID(sequence: 0)
    }

    /// Header fields added to the target's, replacing any of the same name, for this request only.
    let extraHeaders: [String: String]
    /// Header fields added only where the target (or its endpoint) has none of that name.
    let defaultHeaders: [String: String]
    /// The bounds of the stream.
    let limits: StreamingLimits
    /// Which connection of an event source this is: 1 for the first (and for a plain stream).
    let connection: Int
    private let state = Locked(State())

    init(
        extraHeaders: [String: String] = [:], defaultHeaders: [String: String] = [:],
        limits: StreamingLimits = .standard, connection: Int = 1
    ) {
        self.extraHeaders = extraHeaders
        self.defaultHeaders = defaultHeaders
        self.limits = limits
        self.connection = connection
    }

    /// The request's identifier, once the pipeline has given it one.
    var requestID: RequestID {
        get { state.value.requestID }
        set { state.withLock { $0.requestID = newValue } }
    }

    /// Keeps the accepted attempt's body for the caller, with the limits its reads keep to.
    func store(_ transportBody: TransportBody, timeouts: StreamTimeouts) {
        state.withLock { state in
            state.body = transportBody
            state.timeouts = timeouts
        }
    }

    /// The accepted attempt's body and its time limits, once.
    func take() -> (body: TransportBody, timeouts: StreamTimeouts)? {
        state.withLock { state in
            guard let body = state.body.take(), let timeouts = state.timeouts else { return nil }
            return (body, timeouts)
        }
    }
}
