import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that decides retries with a closure and leaves requests unchanged.
///
/// ```swift
/// let provider = Provider<API>(interceptor: Retrier { _, error, context in
///     context.attempt < 3 && error.stage == .transport ? .retryWithDelay(0.5) : .doNotRetry
/// })
/// ```
public struct Retrier: RequestInterceptor {
    private let handler: @Sendable (URLRequest, CourierError, RequestContext) async -> RetryResult

    /// `true`: a retrier adapts nothing, so it waits for nothing.
    public var boundsItsWaits: Bool { true }

    /// Creates a retrier.
    /// - Parameter handler: Decides what happens after a failed attempt.
    public init(_ handler: @escaping @Sendable (URLRequest, CourierError, RequestContext) async -> RetryResult) {
        self.handler = handler
    }

    /// Returns what the closure returns.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - error: The attempt's error.
    ///   - context: The target, the attempt number and the response, if any.
    /// - Returns: The closure's decision.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        await handler(request, error, context)
    }
}
