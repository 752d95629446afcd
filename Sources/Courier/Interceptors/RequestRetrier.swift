import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Decides whether a failed attempt is tried again: the place for retry policies and token refresh.
///
/// `retry` is asked after any failed attempt (a plugin's `prepare` or the adapter threw, the
/// transport failed, or the status code failed validation), never after cancellation. A 401 is a
/// failure only when the target's ``TargetType/validationType`` rejects it.
/// ```swift
/// struct RetryUnavailable: RequestRetrier {
///     func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async -> RetryResult {
///         context.response?.statusCode == 503 && context.attempt < 3 ? .retryWithDelay(1) : .doNotRetry
///     }
/// }
/// ```
public protocol RequestRetrier: Sendable {
    /// Decides what happens after a failed attempt.
    /// - Parameters:
    ///   - request: The attempt's request, as far as it got (adapted when adaptation succeeded).
    ///   - error: The attempt's error.
    ///   - context: The target, the failed attempt's number and its response, if any.
    /// - Returns: Whether and when to try again.
    func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async -> RetryResult
}
