/// Why another attempt of a request followed a failed one, as ``AttemptMetrics/retryReason``
/// records it: an open set, which later versions extend (compare with `==`, or `switch` with a
/// `default`).
public struct RetryReason: Sendable, Hashable, CustomStringConvertible {
    /// The reason's name, such as `failure`.
    public let description: String

    /// A reason of your own interceptor's, marked with ``RequestContext/markRetry(_:)``.
    /// - Parameter name: Its name, a bounded word fit for a metric label.
    public init(_ name: String) {
        description = name
    }

    /// A retrier retried a failed attempt (``RetryPolicy``, or any retry not marked otherwise).
    public static let failure = RetryReason("failure")
    /// The request was sent again with a refreshed (or newer) credential after an authentication
    /// failure: marked by ``AuthenticationInterceptor``.
    public static let reauthentication = RetryReason("reauthentication")
}
