import Foundation

/// A point in time on the provider's clock, for the total timeout of a request.
struct Deadline: Sendable {
    private let instant: TimeInterval
    private let clock: any ProviderClock

    /// The deadline `seconds` from now on `clock` (a negative or NaN value means now).
    init(after seconds: TimeInterval, clock: any ProviderClock = .system) {
        let clamped = seconds > 0 ? min(seconds, Delay.maximumSeconds) : 0
        self.clock = clock
        instant = clock.now() + clamped
    }

    /// The seconds left; zero or less once it has passed.
    var remaining: TimeInterval { instant - clock.now() }
}

/// The time limits of one request's attempts.
struct Timeouts: Sendable {
    /// The longest one attempt may take.
    let attempt: TimeInterval?
    /// When the whole request must be over.
    let deadline: Deadline?
    /// The provider's clock, which the limits are measured on.
    var clock: any ProviderClock = .system
    /// Whether `clock` is another than the system's (read once by the provider).
    var ownClock = false
    /// The provider's timer for limits on the system's clock, or `nil` for one timer per limit.
    var timers: DeadlineTimers?

    /// The clock a time limit must sleep on, or `nil` for the system's, which needs no task and
    /// no look at the clock's type on every wait (a stream waits once per chunk).
    var limitClock: (any ProviderClock)? { ownClock ? clock : nil }

    /// The time the next exchange may take: the attempt's limit or what is left of the request's,
    /// whichever is shorter (at least a millisecond, so an expired deadline times out at once).
    var forExchange: TimeInterval? {
        let left = deadline.map { max(0.001, $0.remaining) }
        switch (attempt, left) {
        case (let attempt?, let left?): return min(attempt, left)
        case (let attempt?, nil): return attempt
        case (nil, let left): return left
        }
    }

    /// Whether a retry after `delay` seconds could not finish within the deadline: it would start
    /// after it, or with less time left than the failed attempt took (`previous`), so that a
    /// request that timed out is not sent again into a budget too short for it.
    func forbidsRetry(after delay: TimeInterval, previous: TimeInterval = 0) -> Bool {
        guard let deadline else { return false }
        let left = deadline.remaining - max(0, delay)
        return left <= 0 || left < previous
    }
}
