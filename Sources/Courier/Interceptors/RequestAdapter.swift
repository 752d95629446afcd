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
///
/// A request with a total timeout (``TargetType/totalTimeoutInterval``) counts the time `adapt`
/// waits: the provider runs `adapt` within what is left of it, in a task of its own with a timer,
/// so that a wait that never ends still ends the request in time. An adapter that waits for
/// nothing, or only through ``RequestContext/withinTotalTimeout(_:)``, says so with
/// ``boundsItsWaits`` and is run as is, without that task (about 15,000 instructions a request).
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - context: The target and the attempt number.
    /// - Returns: The request to send.
    /// - Throws: Any error, to fail the attempt.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Whether `adapt` waits for nothing, or only through ``RequestContext/withinTotalTimeout(_:)``,
    /// so that the provider need not bound it itself; `false` by default.
    var boundsItsWaits: Bool { get }
}

extension RequestAdapter {
    /// `false`: the provider bounds `adapt` by the request's total timeout.
    public var boundsItsWaits: Bool { false }
}
