import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Observes and changes requests and results as they pass through a ``Provider``.
///
/// Every method has a default that does nothing, so a plugin implements only what it needs.
/// The provider calls them in a fixed order (see ``Provider``): `prepare`, `willSend`,
/// `willTransmit` (after the interceptor's `adapt`) and `didCompleteAttempt` once per attempt, `didReceive` and `process` once per request, each in the order of the `plugins` array;
/// for a streamed response, `didFinishStream` once more when its body ends.
/// ```swift
/// struct UserAgentPlugin: PluginType {
///     func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
///         var request = request
///         request.setValue("MyApp/1.0", forHTTPHeaderField: "User-Agent")
///         return request
///     }
/// }
/// ```
/// Hooks may run on any thread. Built with Swift 6.2 or later, an `async` request runs them on the
/// caller's actor (for a call from the main actor, on the main thread; below a stage that leaves
/// it, a resumable transfer's, off it), so a hook must not block, nor call
/// `DispatchQueue.main.sync`. `prepare` may be `async` and may throw: a thrown error fails the
/// attempt with ``CourierError/preparation(_:request:)``, which the retrier may retry. A plugin
/// that only watches can conform to ``ObservingPlugin`` instead, and is spared the calls to
/// `prepare` and `process`.
public protocol PluginType: Sendable {
    /// Changes the request before it is sent; called once per attempt, each plugin receiving the
    /// previous one's output. Every attempt starts again from the request the provider built.
    /// - Parameters:
    ///   - request: The request so far.
    ///   - target: The target being requested.
    /// - Returns: The request to pass on.
    /// - Throws: Any error, to fail this attempt.
    func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest

    /// Called once per attempt after every plugin has prepared the request, before the
    /// interceptor adapts it and the transport sends it.
    /// - Parameters:
    ///   - request: The prepared request, its attempt number and its cURL form.
    ///   - target: The target being requested.
    func willSend(_ request: PreparedRequest, target: any TargetType)

    /// Called once per attempt with the request exactly as it is sent: after the interceptor
    /// adapted it and its header fields were checked (so a logger sees the `Authorization` an
    /// adapter added). Observation only. Not called for an attempt whose `prepare` or `adapt`
    /// failed.
    /// - Parameters:
    ///   - request: The transmitted request, its attempt number and its identifier.
    ///   - target: The target being requested.
    func willTransmit(_ request: PreparedRequest, target: any TargetType)

    /// Called once per attempt with how it ended, before the retrier is asked about it: each
    /// attempt's response or error, where `didReceive` sees only the final one. Observation only.
    /// - Parameters:
    ///   - outcome: The attempt's number, result, request and metrics.
    ///   - target: The target being requested.
    func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType)

    /// Called once per request with its final result, after the last attempt.
    /// - Parameters:
    ///   - result: The response, or the error the request ended with.
    ///   - target: The target that was requested.
    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType)

    /// Called once per request with its final result and what it did: the provider calls this
    /// one. Its default calls ``didReceive(_:target:)``; implement it instead when you need the
    /// request's identifier, durations or attempts (loggers, activity indicators, metrics).
    /// - Parameters:
    ///   - result: The response, or the error the request ended with.
    ///   - target: The target that was requested.
    ///   - metrics: The request's identifier, duration and attempts.
    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics)

    /// Changes the final result before it reaches the caller; each plugin receives the previous
    /// one's output and may turn a success into a failure or back.
    /// - Parameters:
    ///   - result: The result so far.
    ///   - target: The target that was requested.
    /// - Returns: The result to pass on.
    func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
        Response, CourierError
    >

    /// Called once per streamed response (`Provider.stream(_:)`, each connection of
    /// `Provider.events(_:)`), after `process`, when its body ends: read to the end, failed, or
    /// abandoned by the reader. It runs on the reader's task, or where the last reference to the
    /// response goes.
    /// - Parameters:
    ///   - summary: The bytes and events read, the duration and how the stream ended.
    ///   - target: The target that was requested.
    func didFinishStream(_ summary: StreamSummary, target: any TargetType)
    /// Called once per credential refresh (or first sign-in) that an ``AuthenticationInterceptor``
    /// of this provider ran, however many requests waited for it: when it ends, after the
    /// interceptor's `onRefresh` or `onRefreshFailure`, before the waiting requests go on. It runs
    /// on the refresh's own task.
    /// - Parameters:
    ///   - refresh: What ran, how long it took, and its error if it failed.
    ///   - target: The (underlying) target of the request that started it.
    func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType)

    /// Called for each message an open ``WebSocket`` of this provider sends or receives, and
    /// once when it closes or fails, after its opening handshake's `didReceive` and `process`.
    /// Observation only; it runs on the sender's or the reader's task and must not block.
    /// - Parameters:
    ///   - activity: The message or the close, and the handshake's request identifier.
    ///   - target: The socket's target.
    func didObserve(_ activity: WebSocketActivity, target: any TargetType)

    /// Called as an ``Outbox`` of this provider takes an entry, waits to try it again, and ends
    /// it, with the queue's state after each; a try itself is a request, seen through the other
    /// hooks. Observation only; it runs on the outbox's tasks and must not block.
    /// - Parameters:
    ///   - activity: What happened, to which entry of which queue.
    ///   - target: The entry's target; `nil` for an entry whose stored target does not decode.
    func didObserve(_ activity: OutboxActivity, target: (any TargetType)?)
}

extension PluginType {
    /// Returns `request` unchanged.
    public func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest { request }
    /// Does nothing.
    public func willSend(_ request: PreparedRequest, target: any TargetType) {}
    /// Does nothing.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {}
    /// Does nothing.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {}
    /// Does nothing.
    public func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {}
    /// Calls ``didReceive(_:target:)``.
    public func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
        didReceive(result, target: target)
    }
    /// Returns `result` unchanged.
    public func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
        Response, CourierError
    > { result }
    /// Does nothing.
    public func didFinishStream(_ summary: StreamSummary, target: any TargetType) {}
    /// Does nothing.
    public func didObserve(_ activity: WebSocketActivity, target: any TargetType) {}
    /// Does nothing.
    public func didObserve(_ activity: OutboxActivity, target: (any TargetType)?) {}
    /// Does nothing.
    public func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {}
}
