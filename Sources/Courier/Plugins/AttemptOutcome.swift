import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one attempt ended, as `PluginType.didCompleteAttempt(_:target:)` sees it, before the
/// retrier decides: every attempt's response or error, not only the request's final one.
public struct AttemptOutcome: Sendable {
    /// The request's identifier, the same in every hook.
    public let requestID: RequestID
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The attempt's response (validated), or its error (a rejected status is
    /// ``CourierError/statusCode(_:)`` with the response).
    public let result: Result<Response, CourierError>
    /// The request as far as the attempt got: the transmitted request once it was adapted, the
    /// prepared one when `prepare` or `adapt` failed.
    public let request: URLRequest
    /// The attempt's duration, status and sizes.
    public let metrics: AttemptMetrics

    /// Creates an outcome.
    /// - Parameters:
    ///   - requestID: The request's identifier.
    ///   - attempt: The attempt number.
    ///   - result: The response or the error.
    ///   - request: The request as far as the attempt got.
    ///   - metrics: The attempt's metrics.
    public init(
        requestID: RequestID, attempt: Int, result: Result<Response, CourierError>, request: URLRequest,
        metrics: AttemptMetrics
    ) {
        self.requestID = requestID
        self.attempt = attempt
        self.result = result
        self.request = request
        self.metrics = metrics
    }
}
