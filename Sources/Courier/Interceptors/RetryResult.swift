import Foundation

/// A retrier's decision about a failed attempt.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum RetryResult: Sendable {
    /// Make another attempt now.
    case retry
    /// Make another attempt after waiting this many seconds. Cancelling the request ends the wait.
    case retryWithDelay(TimeInterval)
    /// Finish the request with the attempt's error. Inside a composite ``Interceptor`` this means
    /// "not mine": the next retrier is asked, and the request finishes only if none retries.
    case doNotRetry
    /// Finish the request with this error instead (a ``CourierError`` is kept as it is; any other
    /// error becomes ``CourierError/underlying(_:_:)`` with the attempt's response). Inside a
    /// composite ``Interceptor`` this stops: no later retrier is asked.
    case doNotRetryWithError(any Error)
}

extension RetryResult {
    /// Whether this result asks for another attempt.
    var retries: Bool {
        switch self {
        case .retry, .retryWithDelay: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }
}
