import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Several adapters and retriers combined into one interceptor.
///
/// Adapters run in order, each receiving the previous one's output; the first that throws ends
/// the chain. Retriers are asked in order, as in Alamofire, and each answer means:
///
/// | a retrier answers | the composite |
/// | --- | --- |
/// | ``RetryResult/retry``, ``RetryResult/retryWithDelay(_:)`` | retries; later retriers are not asked |
/// | ``RetryResult/doNotRetry`` | "not mine": asks the next retrier; the request fails only if none retries |
/// | ``RetryResult/doNotRetryWithError(_:)`` | stops: fails the request with that error; later retriers are not asked |
///
/// So a retrier that must veto every retry (a request that must never be sent twice) answers
/// `.doNotRetryWithError`, not `.doNotRetry`. `interceptors` are added after `adapters` and after
/// `retriers`.
/// ```swift
/// let interceptor = Interceptor(adapters: [apiKey], retriers: [retryUnavailable], interceptors: [auth])
/// ```
public struct Interceptor: RequestInterceptor {
    /// The adapters, in the order they run.
    public let adapters: [any RequestAdapter]
    /// The retriers, in the order they are asked.
    public let retriers: [any RequestRetrier]

    /// Creates a composite interceptor.
    /// - Parameters:
    ///   - adapters: Adapters that run first, in order.
    ///   - retriers: Retriers asked first, in order.
    ///   - interceptors: Interceptors that act as both, after the others.
    public init(
        adapters: [any RequestAdapter] = [],
        retriers: [any RequestRetrier] = [],
        interceptors: [any RequestInterceptor] = []
    ) {
        self.adapters = adapters + interceptors.map { $0 as any RequestAdapter }
        self.retriers = retriers + interceptors.map { $0 as any RequestRetrier }
    }

    /// Whether every adapter in it bounds its own waits.
    public var boundsItsWaits: Bool {
        adapters.allSatisfy(\.boundsItsWaits)
    }

    /// Runs every adapter in order.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The last adapter's output.
    /// - Throws: The first adapter error; later adapters do not run.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        for adapter in adapters {
            request = try await adapter.adapt(request, context: context)
        }
        return request
    }

    /// Asks every retrier in order until one answers something other than ``RetryResult/doNotRetry``.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - error: The attempt's error.
    ///   - context: The target, the attempt number and the response, if any.
    /// - Returns: The first decision other than ``RetryResult/doNotRetry``, or that.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    {
        for retrier in retriers {
            let result = await retrier.retry(request, dueTo: error, context: context)
            if case .doNotRetry = result { continue }
            return result
        }
        return .doNotRetry
    }
}
