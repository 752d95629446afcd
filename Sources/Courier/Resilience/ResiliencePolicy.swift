import Foundation

/// What protects a dependency that is failing, and the app from it: a retry budget, a circuit
/// breaker, concurrency and rate limits, server back-off, hedging and timeouts, declared once
/// for a provider or per target.
///
/// ```swift
/// let provider = Provider<GitHub>(interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard))
/// ```
/// A target may declare its own, which replaces the provider's:
/// ```swift
/// var resilience: ResiliencePolicy? {
///     switch self {
///     case .suggestions: ResiliencePolicy.standard.with(hedging: Hedging(delay: .fixed(0.2)))
///     default: nil   // the provider's
///     }
/// }
/// ```
/// Every piece is optional; each acts on *attempts*, in this order, in the transport's place
/// (step 6 of the call order, after `adapt` and the transmitted-request observation, below the
/// ``HTTPCache``): server back-off, then the rate limit, then the concurrency limit, then the
/// circuit breaker, then the exchange, hedged when asked. The retry budget acts in step 8, when
/// the retrier asked for a retry. A refusal is a failed attempt whose error is
/// ``CourierError/transport(_:request:)`` with a ``ResilienceError``: validation does not run,
/// the attempt observation and `retry` see it as any failure (``RetryPolicy`` never retries it),
/// and `didReceive`, `process` and the completion follow as for the network.
///
/// Requests share state per ``scope`` (per origin by default), inside their provider.
public struct ResiliencePolicy: Sendable, Hashable {
    /// Which requests share the state; ``ResilienceScope/host`` by default.
    public var scope: ResilienceScope
    /// How many retries (and hedges) the scope may make, or `nil` for no limit.
    public var retryBudget: RetryBudget?
    /// When to stop sending to the scope, or `nil` for never.
    public var circuitBreaker: CircuitBreaker?
    /// The most exchanges in flight at once, or `nil` for no limit.
    public var concurrencyLimit: ConcurrencyLimit?
    /// The most exchanges per interval, or `nil` for no limit.
    public var rateLimit: RateLimit?
    /// Host-wide back-off after a `Retry-After`, or `nil` for none.
    public var serverBackOff: ServerBackOff?
    /// Hedged requests, or `nil` (the default: hedging is opt-in).
    public var hedging: Hedging?
    /// The longest one attempt may take, in seconds, for a target without its own
    /// ``TargetType/timeoutInterval``; `nil` leaves the engine's.
    public var attemptTimeout: TimeInterval?
    /// The longest a request may take with all its attempts and waits, in seconds, for a target
    /// without its own ``TargetType/totalTimeoutInterval``; `nil` for no limit.
    public var totalTimeout: TimeInterval?

    /// Creates a policy of the pieces given; none by default.
    /// - Parameters:
    ///   - scope: Which requests share the state.
    ///   - retryBudget: How many retries the scope may make.
    ///   - circuitBreaker: When to stop sending to the scope.
    ///   - concurrencyLimit: The most exchanges in flight at once.
    ///   - rateLimit: The most exchanges per interval.
    ///   - serverBackOff: Host-wide back-off after a `Retry-After`.
    ///   - hedging: Hedged requests.
    public init(
        scope: ResilienceScope = .host, retryBudget: RetryBudget? = nil, circuitBreaker: CircuitBreaker? = nil,
        concurrencyLimit: ConcurrencyLimit? = nil, rateLimit: RateLimit? = nil, serverBackOff: ServerBackOff? = nil,
        hedging: Hedging? = nil
    ) {
        self.scope = scope
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.concurrencyLimit = concurrencyLimit
        self.rateLimit = rateLimit
        self.serverBackOff = serverBackOff
        self.hedging = hedging
    }

    /// The preset: a retry budget, a circuit breaker, a concurrency limit and server back-off,
    /// per host. Its defaults, next to .NET's standard resilience handler
    /// (`AddStandardResilienceHandler`, on Polly v8):
    ///
    /// | | Courier `.standard` | .NET standard handler |
    /// |---|---|---|
    /// | Concurrency | 1,000 in flight, no queue | 1,000 permits, no queue |
    /// | Total timeout | the target's `totalTimeoutInterval` (none by default) | 30 s |
    /// | Retries | the interceptor's (``RetryPolicy``: 2 retries, full jitter) within a budget of 20 % of requests + 10/s over 10 s | 3 retries, 2 s exponential with jitter; no budget |
    /// | Circuit breaker | opens after 10 failures in a row, or at 50 % failures of ≥ 10 outcomes in 2 s; 5 s break; 1 probe | opens at 10 % failures of ≥ 100 calls in 30 s; 5 s break |
    /// | Attempt timeout | the target's `timeoutInterval` (the engine's 60 s by default) | 10 s |
    /// | Retry-After | the retrier waits it; the host's other requests hold back up to 30 s | the retry waits it |
    /// | Failures | transport failures, 5xx, 408, 429 | the same |
    ///
    /// Courier's breaker opens within milliseconds of a busy dependency going fully down (ten
    /// failures in a row), and after ten failed requests for a quiet client; .NET's
    /// waits until failures reach 10 % of a 30-second window, seconds late after a busy spell and
    /// never for a client making fewer than 100 calls in 30 s. Courier leaves the timeouts to the
    /// target because a total limit that suits a JSON call cuts off an upload or a stream.
    public static let standard = ResiliencePolicy(
        retryBudget: .standard, circuitBreaker: .standard, concurrencyLimit: .standard, serverBackOff: .standard)

    /// This policy with `hedging`.
    /// - Parameter hedging: The hedging policy, or `nil` for none.
    /// - Returns: The changed policy.
    public func with(hedging: Hedging?) -> ResiliencePolicy {
        var policy = self
        policy.hedging = hedging
        return policy
    }

    /// This policy with its state shared by `scope`.
    /// - Parameter scope: Which requests share the state.
    /// - Returns: The changed policy.
    public func scoped(_ scope: ResilienceScope) -> ResiliencePolicy {
        var policy = self
        policy.scope = scope
        return policy
    }

    /// Hashes the scope alone: a provider finds a request's state by it, once per request, and
    /// equality tells policies of one scope apart.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(scope)
    }
}
