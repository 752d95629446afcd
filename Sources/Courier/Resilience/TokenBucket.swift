import Foundation

/// The state of a ``RateLimit``: tokens that refill evenly up to the limit's permits. A taker
/// that has to wait reserves its token now (the count goes below zero), so that waiters are
/// served in order and each one's wait is known when it starts.
struct TokenBucket: Sendable {
    let limit: RateLimit
    private var tokens: Double
    private var refilledAt: TimeInterval?

    init(_ limit: RateLimit) {
        self.limit = limit
        tokens = Double(limit.permits)
    }

    private var perSecond: Double { Double(limit.permits) / limit.interval }

    /// Takes a token: the seconds to wait for it (0 when there is one now), or the refusal when
    /// the wait would be longer than the limit allows.
    mutating func take(now: TimeInterval) -> Result<TimeInterval, ResilienceError> {
        refill(now: now)
        let wait = tokens >= 1 ? 0 : (1 - tokens) / perSecond
        if wait > limit.maximumWait { return .failure(.rateLimited(retryAfter: wait)) }
        tokens -= 1
        return .success(wait)
    }

    /// Gives back a token taken by an attempt that was then cancelled while it waited.
    mutating func giveBack() {
        tokens = min(Double(limit.permits), tokens + 1)
    }

    private mutating func refill(now: TimeInterval) {
        if let last = refilledAt, now > last {
            tokens = min(Double(limit.permits), tokens + (now - last) * perSecond)
        }
        if refilledAt.map({ now > $0 }) ?? true { refilledAt = now }
    }
}
