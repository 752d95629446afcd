import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Both a ``RequestAdapter`` and a ``RequestRetrier``: what a ``Provider`` takes as its
/// `interceptor`.
///
/// Both methods have defaults (pass the request through; do not retry), so a type implements
/// only the half it needs. Combine several with ``Interceptor``, or write one from closures with
/// ``Adapter`` and ``Retrier``.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Returns `request` unchanged.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }

    /// Returns ``RetryResult/doNotRetry``.
    public func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async
        -> RetryResult
    { .doNotRetry }
}
