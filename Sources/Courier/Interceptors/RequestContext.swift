/// What an interceptor knows about the request it is adapting or retrying.
public struct RequestContext: Sendable {
    /// The target being requested.
    public let target: any TargetType
    /// The attempt number, starting at 1. In `retry` it is the attempt that just failed.
    public let attempt: Int
    /// The response of the failed attempt, when it got one (always `nil` in `adapt`).
    public let response: Response?
    /// The provider's identifier of the request: the same in every attempt, and the one
    /// plugins see in ``PreparedRequest/requestID`` and ``RequestMetrics/requestID``.
    public let requestID: RequestID
    /// The provider's clock: a retrier reads the time from it (``RetryPolicy`` does, for
    /// `Retry-After` dates), so that tests with a clock of their own control it.
    public let clock: any ProviderClock
    /// Why this attempt is made, from the second on: the reason its predecessor was retried for
    /// (``RetryReason/failure`` unless the retrier marked another with ``markRetry(_:)``); `nil`
    /// for the first attempt. In `retry` it is why the attempt that just failed was made.
    public var retryReason: RetryReason? {
        attempt > 1 ? storage.lastRetryReason : nil
    }
    /// Whether the request is a resumable transfer (``Provider/download(_:resumingInto:progress:)``,
    /// ``Provider/upload(_:resumingFrom:speaking:stateDirectory:progress:)``): a retry of it sends only what
    /// the server lacks and can never apply anything twice, whatever its method, so
    /// ``RetryPolicy`` retries it as it retries an idempotent request. An upload's attempt is not
    /// one while its creation's answer is awaited (a retry could make a second upload resource),
    /// nor when the server does not take resumable uploads.
    public internal(set) var resumesTransfer = false
    /// What interceptors remember about this request across its attempts.
    let storage: RequestStorage
    /// The provider the request belongs to, for a refresh that sends through it.
    let sender: (any RequestSending)?
    /// The request's time limits, when the provider runs it with a total timeout.
    let timeouts: Timeouts?

    /// Creates a context, for tests of your own interceptors. Each context made this way stands
    /// for a new request: what an interceptor remembers about a request is not carried over.
    /// - Parameters:
    ///   - target: The target being requested.
    ///   - attempt: The attempt number, starting at 1.
    ///   - response: The response of the failed attempt, if any.
    ///   - requestID: The request's identifier.
    ///   - clock: The clock; the system's by default.
    public init(
        target: any TargetType, attempt: Int, response: Response? = nil, requestID: RequestID = RequestID(sequence: 0),
        clock: any ProviderClock = .system
    ) {
        self.init(
            target: target, attempt: attempt, response: response, requestID: requestID, storage: RequestStorage(),
            sender: nil, clock: clock, timeouts: nil)
    }

    /// Creates the context of one attempt of a request the provider runs.
    init(
        target: any TargetType, attempt: Int, response: Response?, requestID: RequestID, storage: RequestStorage,
        sender: (any RequestSending)?, clock: any ProviderClock = .system, timeouts: Timeouts? = nil
    ) {
        self.timeouts = timeouts
        self.clock = clock
        self.target = target
        self.attempt = attempt
        self.response = response
        self.requestID = requestID
        self.storage = storage
        self.sender = sender
    }

    /// Says why the retry this `retry` is about to ask for is made: the provider records it as the
    /// failed attempt's ``AttemptMetrics/retryReason``, for plugins and metrics. A retry not marked
    /// is a ``RetryReason/failure``.
    /// ```swift
    /// context.markRetry(.reauthentication)
    /// return .retry
    /// ```
    /// - Parameter reason: The reason.
    public func markRetry(_ reason: RetryReason) {
        storage.markRetry(reason)
    }

    /// Runs `wait` within what is left of the request's total timeout, when it has one (and as
    /// is when not): for an adapter that may wait for something (a refresh, a lock of its own) and
    /// says ``RequestAdapter/boundsItsWaits``. Time running out ends the wait at once with
    /// ``TransportFailure/Kind/timedOut``, even if `wait` ignores the cancellation it is then
    /// given.
    /// ```swift
    /// struct TokenAdapter: RequestAdapter {
    ///     let fetchToken: @Sendable () async throws -> String   // may wait for a server
    ///     var boundsItsWaits: Bool { true }
    ///     func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    ///         let token = try await context.withinTotalTimeout(fetchToken)
    ///         var signed = request
    ///         signed.setHeaderField("Bearer \(token)", named: "Authorization")
    ///         return signed
    ///     }
    /// }
    /// ```
    /// - Parameter wait: The wait.
    /// - Returns: What `wait` returned in time.
    /// - Throws: What `wait` threw, or the timeout.
    public func withinTotalTimeout<Value: Sendable>(
        _ wait: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        guard let timeouts, let deadline = timeouts.deadline else { return try await wait() }
        return try await TimeLimit.run(
            seconds: max(0.001, deadline.remaining), clock: timeouts.limitClock, timers: timeouts.timers,
            discard: { _ in }, wait)
    }

    /// What an authenticator's refresh gets: the underlying target and this request's provider.
    var refreshContext: RefreshContext {
        RefreshContext(target: target.underlyingTarget, sender: sender)
    }
}
