import Foundation

/// The state of one ``ResiliencePolicy`` for one scope key (an origin, the provider, a group):
/// what its requests share. Everything but the concurrency limit's queue sits behind one lock,
/// taken once before an exchange and once after it.
final class ScopeState: Sendable {
    private struct Shared: Sendable {
        var ledger: BudgetLedger?
        var breaker: BreakerState?
        var bucket: TokenBucket?
        var backOffUntil = -TimeInterval.infinity
        /// When the back-off is a spent rate limit: its reset, which a refusal names.
        var rateLimitReset: Date?
        var latencies = LatencyWindow()
    }

    /// What the scope allows an attempt before the concurrency limit: a wait, or a refusal.
    enum Gate {
        case go
        case wait(backOff: TimeInterval, rate: TimeInterval)
    }

    let policy: ResiliencePolicy
    /// The scope key: the origin, `provider`, or the group's name.
    let key: String
    let bulkhead: Bulkhead?
    // The policy's pieces, read apart once: testing a piece of `policy` for nil copies it.
    let hasBudget: Bool
    let hasBreaker: Bool
    let hasRateLimit: Bool
    let backOff: ServerBackOff?
    let breaker: CircuitBreaker?
    let hedging: Hedging?
    let attemptTimeout: TimeInterval?
    let totalTimeout: TimeInterval?
    /// The breaker's failure statuses and the back-off's (`Retry-After` and rate-limit ones), as tables.
    let failureStatuses: StatusCodeTable
    let backOffStatuses: StatusCodeTable
    private let shared: Locked<Shared>

    init(policy: ResiliencePolicy, key: String) {
        self.policy = policy
        self.key = key
        hasBudget = policy.retryBudget != nil
        hasBreaker = policy.circuitBreaker != nil
        hasRateLimit = policy.rateLimit != nil
        backOff = policy.serverBackOff
        breaker = policy.circuitBreaker
        hedging = policy.hedging
        attemptTimeout = policy.attemptTimeout
        totalTimeout = policy.totalTimeout
        failureStatuses = StatusCodeTable(
            policy.circuitBreaker?.failureStatusCodes ?? CircuitBreaker.defaultFailureStatusCodes)
        backOffStatuses = StatusCodeTable(
            (policy.serverBackOff?.statusCodes ?? []).union(policy.serverBackOff?.rateLimitStatusCodes ?? []))
        bulkhead = policy.concurrencyLimit.map(Bulkhead.init)
        shared = Locked(
            Shared(
                ledger: policy.retryBudget.map(BudgetLedger.init),
                breaker: policy.circuitBreaker.map { BreakerState($0, scope: key) },
                bucket: policy.rateLimit.map(TokenBucket.init)))
    }

    /// Whether the budget allows one more retry or hedge, which it then counts.
    func allowsRetry(now: TimeInterval) -> Bool {
        guard hasBudget else { return true }
        return shared.withLock { $0.ledger?.withdraw(now: now) ?? true }
    }

    /// Server back-off, then the rate limit: how long to wait before the exchange, at most
    /// `patience` seconds (what is left of the request's time).
    func gate(now: TimeInterval, patience: TimeInterval) throws(ResilienceError) -> Gate {
        guard backOff != nil || hasRateLimit else { return .go }
        return try shared.withLock { shared -> Result<Gate, ResilienceError> in
            var held: TimeInterval = 0
            if let rule = self.backOff, shared.backOffUntil > now {
                let left = shared.backOffUntil - now
                guard left <= min(rule.maximumWait, patience) else {
                    if let reset = shared.rateLimitReset { return .failure(.rateLimitExhausted(until: reset)) }
                    return .failure(.backingOff(retryAfter: left))
                }
                // Waiters spread over up to a tenth of the wait (at most a second), not all at once.
                held = left + min(1, left / 10) * Double.random(in: 0..<1)
            }
            var rate: TimeInterval = 0
            if shared.bucket != nil {
                switch shared.bucket!.take(now: now + held) {
                case .success(let wait): rate = wait
                case .failure(let refusal): return .failure(refusal)
                }
                if held + rate > patience {
                    shared.bucket!.giveBack()
                    return .failure(.rateLimited(retryAfter: rate))
                }
            }
            return .success(held + rate > 0 ? .wait(backOff: held, rate: rate) : .go)
        }.get()
    }

    /// Gives back the rate limit's token of an attempt that was not sent after all.
    func returnToken() {
        shared.withLock { $0.bucket?.giveBack() }
    }

    /// The breaker's word on an attempt about to be sent, with the transitions it made.
    func admit(now: TimeInterval) -> (BreakerState.Admission, [CircuitTransition]) {
        guard hasBreaker else { return (.pass, []) }
        return shared.withLock { shared in
            var transitions: [CircuitTransition] = []
            let admission = shared.breaker!.admit(now: now, transitions: &transitions)
            return (admission, transitions)
        }
    }

    /// How an attempt fared at the gates when nothing made it wait.
    enum Passage {
        /// Through every gate, with a place taken when the policy has a concurrency limit.
        case admitted(BreakerState.Admission, [CircuitTransition])
        /// Refused at once.
        case refused(ResilienceError, [CircuitTransition])
        /// A gate would make it wait: take the gates one at a time (with the breaker's
        /// transitions so far).
        case mustWait([CircuitTransition])
    }

    /// Every gate at once, when none makes the attempt wait: one lock for the first attempt's
    /// deposit in the retry budget, the back-off, the rate limit and the breaker, then a place of
    /// the concurrency limit if it has one free. What a gate gave is given back when a later one
    /// would make the attempt wait.
    func passAtOnce(now: TimeInterval, deposit: Bool) -> Passage {
        let passage = shared.withLock { shared -> Passage in
            if deposit { shared.ledger?.deposit(now: now) }
            if backOff != nil, shared.backOffUntil > now { return .mustWait([]) }
            if shared.bucket != nil {
                switch shared.bucket!.take(now: now) {
                case .success(let wait) where wait == 0: break
                case .success:
                    // A token reserved for later: given back, the slow path waits for it.
                    shared.bucket!.giveBack()
                    return .mustWait([])
                case .failure:
                    // Nothing was taken; the slow path refuses with the wait it would need.
                    return .mustWait([])
                }
            }
            guard shared.breaker != nil else { return .admitted(.pass, []) }
            var transitions: [CircuitTransition] = []
            let admission = shared.breaker!.admit(now: now, transitions: &transitions)
            if case .refuse(let retryAfter) = admission {
                if shared.bucket != nil { shared.bucket!.giveBack() }
                return .refused(.circuitOpen(retryAfter: retryAfter), transitions)
            }
            return .admitted(admission, transitions)
        }
        guard case .admitted(let admission, let transitions) = passage, let bulkhead, !bulkhead.tryAcquire() else {
            return passage
        }
        shared.withLock { shared in
            if admission == .probe { shared.breaker?.releaseProbe() }
            if shared.bucket != nil { shared.bucket!.giveBack() }
        }
        return .mustWait(transitions)
    }

    /// What an exchange's outcome teaches the scope: the breaker counts it, a server's announced
    /// wait holds the scope back, a success's latency feeds hedging. A spent rate limit is not a
    /// failure: the breaker does not count it (a probe that met one is given back).
    func record(_ outcome: ExchangeOutcome, admission: BreakerState.Admission, now: TimeInterval) -> [CircuitTransition]
    {
        shared.withLock { shared in
            var transitions: [CircuitTransition] = []
            if outcome.cancelled || outcome.serverWait?.isRateLimit == true {
                if admission == .probe { shared.breaker?.releaseProbe() }
            } else if let breaker {
                let failed = outcome.status.map(failureStatuses.contains) ?? breaker.countsTransportFailures
                shared.breaker!.record(failure: failed, admission: admission, now: now, transitions: &transitions)
            }
            if let rule = backOff, let wait = outcome.serverWait {
                let held = min(wait.seconds, rule.longestBackOff)
                if now + held > shared.backOffUntil {
                    shared.backOffUntil = now + held
                    shared.rateLimitReset = wait.isRateLimit ? outcome.date.addingTimeInterval(held) : nil
                }
            }
            if hedging != nil, let latency = outcome.latency { shared.latencies.add(latency) }
            return transitions
        }
    }

    /// The breaker's state now, for tests and logs (`closed` without a breaker).
    var circuitState: CircuitState { shared.withLock { $0.breaker?.state ?? .closed } }

    /// The scope's hedging delay now.
    func hedgeDelay(_ hedging: Hedging) -> TimeInterval {
        switch hedging.delay {
        case .fixed(let seconds): return seconds
        case .percentile(let fraction, let floor):
            let measured = shared.withLock { $0.latencies.percentile(fraction) }
            return max(floor, measured ?? floor)
        }
    }
}

/// How one exchange ended, as the scope records it.
struct ExchangeOutcome {
    /// The response's status, or `nil` when the exchange failed.
    var status: Int?
    /// The wait the response announced (``ServerWait``), when the back-off reads it.
    var serverWait: ServerWait?
    /// When the answer came, on the provider's wall clock (the scope's clock is monotonic): a
    /// rate limit's reset is named as a date. Set with ``serverWait``.
    var date = Date.distantPast
    /// The exchange's latency, for a response.
    var latency: TimeInterval?
    /// Whether it ended by cancellation (which teaches nothing).
    var cancelled = false
}
