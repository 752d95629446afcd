import Foundation

/// Why an ``EventSource`` stops instead of reconnecting: normally (`error` is `nil`), or with
/// the error to throw.
struct EventSourceEnd: Error {
    let error: CourierError?

    /// Ends the source unless `failure` (or a normal end, when `nil`) is worth a reconnection;
    /// returns the `Retry-After` a 429 or 503 asked for.
    static func check(
        _ failure: CourierError?, policy: EventReconnection, connected: Bool, now: Date
    ) throws(EventSourceEnd) -> TimeInterval? {
        guard let failure, !failure.isEndBeforeTerminator else {
            // A stream that ended (before its terminator, if it has one) is reconnected; when it
            // is not, an answer cut short is an error.
            if !policy.reconnectsAfterEnd { throw EventSourceEnd(error: failure) }
            return nil
        }
        if !connected && !policy.retriesFirstConnection { throw EventSourceEnd(error: failure) }
        switch failure {
        case .transport(let error, _):
            // A URL that cannot work, or a redirect loop, would fail the same way again.
            let kind = (error as? TransportFailure)?.kind
            if kind == .badURL || kind == .tooManyRedirects { throw EventSourceEnd(error: failure) }
            return nil
        case .statusCode(let response):
            let status = response.statusCode
            if status == 204 { throw EventSourceEnd(error: nil) }
            guard status == 408 || status == 429 || (500...599).contains(status) else {
                throw EventSourceEnd(error: failure)
            }
            let header = response.headerFields["Retry-After"]
            guard let asked = header.flatMap({ RetryAfter.delay($0, now: now) }) else { return nil }
            if asked > policy.maximumRetryAfter { throw EventSourceEnd(error: failure) }
            return asked
        default:
            throw EventSourceEnd(error: failure)
        }
    }

    /// Ends the source, as its connection ended, when its request must not be sent twice.
    static func checkMethod(
        _ method: HTTPMethod, _ failure: CourierError?, policy: EventReconnection
    ) throws(EventSourceEnd) {
        guard !policy.reconnectsNonIdempotentRequests, !RetryPolicy.defaultRetryableHTTPMethods.contains(method)
        else { return }
        throw EventSourceEnd(error: failure)
    }

    /// Ends the source once `failures` reconnections in a row have been made.
    static func checkBudget(
        _ failures: Int, _ failure: CourierError?, policy: EventReconnection
    ) throws(EventSourceEnd) {
        guard failures >= policy.maximumAttempts else { return }
        guard let failure, failures > 0 else { throw EventSourceEnd(error: failure) }
        if failure.isEndBeforeTerminator { throw EventSourceEnd(error: failure) }
        let exhausted = StreamingError.reconnectionsExhausted(attempts: failures, lastError: failure)
        throw EventSourceEnd(error: .underlying(exhausted, failure.response))
    }
}

extension CourierError {
    /// Whether the stream ended normally but before its terminator.
    var isEndBeforeTerminator: Bool {
        (underlyingError as? StreamingError)?.code == .endedBeforeTerminator
    }
}
