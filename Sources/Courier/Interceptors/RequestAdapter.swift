import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Changes each attempt's request just before it is sent: the place for credentials and signing.
///
/// ```swift
/// struct BearerAdapter: RequestAdapter {
///     let tokens: TokenStore
///     func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
///         var request = request
///         request.setValue("Bearer \(try await tokens.current())", forHTTPHeaderField: "Authorization")
///         return request
///     }
/// }
/// ```
/// `adapt` runs after every plugin's `prepare` and `willSend`. A thrown error fails the attempt
/// with ``CourierError/adaptation(_:request:)``; the retrier is then asked whether to retry.
/// Await only work that responds to cancellation, so that cancelling a request stops at once.
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The request to send.
    /// - Throws: Any error, to fail the attempt.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest
}
