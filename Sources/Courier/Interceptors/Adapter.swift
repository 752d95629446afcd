import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that adapts requests with a closure and never retries.
///
/// ```swift
/// let provider = Provider<API>(interceptor: Adapter { request, _ in
///     var request = request
///     request.setValue("secret", forHTTPHeaderField: "X-API-Key")
///     return request
/// })
/// ```
public struct Adapter: RequestInterceptor {
    private let handler: @Sendable (URLRequest, RequestContext) async throws -> URLRequest

    /// Creates an adapter.
    /// - Parameter handler: Returns the request to send for an attempt, or throws to fail it.
    public init(_ handler: @escaping @Sendable (URLRequest, RequestContext) async throws -> URLRequest) {
        self.handler = handler
    }

    /// Returns what the closure returns.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The request to send.
    /// - Throws: What the closure throws.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        try await handler(request, context)
    }
}
