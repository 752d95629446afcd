import Foundation

/// At most ``permits`` exchanges of a scope per ``interval`` seconds: a token bucket that holds
/// up to ``permits`` tokens and refills evenly.
///
/// An attempt that finds the bucket empty waits for the next token when that is at most
/// ``maximumWait`` seconds away, and otherwise fails at once with
/// ``ResilienceError/rateLimited(retryAfter:)``. A waiting attempt that is cancelled gives its
/// token back.
/// ```swift
/// // "5 requests per 10 seconds", waiting up to 10 s for a turn
/// let limit = RateLimit(permits: 5, interval: 10, maximumWait: 10)
/// ```
public struct RateLimit: Sendable, Hashable {
    /// The exchanges allowed per interval, and the most that may go at once after a quiet spell.
    public var permits: Int
    /// The interval, in seconds.
    public var interval: TimeInterval
    /// The longest an attempt waits for a token, in seconds; 0 fails at once.
    public var maximumWait: TimeInterval

    /// Creates a limit.
    /// - Parameters:
    ///   - permits: The exchanges allowed per interval (at least 1).
    ///   - interval: The interval, in seconds.
    ///   - maximumWait: The longest an attempt waits for a token, in seconds; 0 by default.
    public init(permits: Int, interval: TimeInterval, maximumWait: TimeInterval = 0) {
        self.permits = max(1, permits)
        self.interval = interval.isFinite ? min(max(interval, 0.001), Delay.maximumSeconds) : 1
        self.maximumWait = maximumWait.isFinite ? min(max(maximumWait, 0), Delay.maximumSeconds) : 0
    }
}

/// Host-wide back-off: when a server answers 429 or 503 with `Retry-After`, or says its rate
/// limit is spent until a reset, the scope's other attempts hold back until then instead of each
/// finding out for itself.
///
/// A rate limit counts when a `429` or `403` (``rateLimitStatusCodes``) carries a `Retry-After`
/// (GitHub's secondary limits) or says the limit is spent and when it resets:
/// `x-ratelimit-remaining: 0` with `x-ratelimit-reset` (GitHub, GitLab, Mastodon…) or the IETF
/// `RateLimit` fields. A `403` without them is a permission denied and holds nothing back.
/// Such an answer does not count as a failure for the circuit breaker: the server is up, and
/// said when to come back.
///
/// An attempt that starts during a back-off waits for its end when that is at most
/// ``maximumWait`` seconds away (each waiter a little later than the last, so that they do not
/// return together), and otherwise fails at once: with
/// ``ResilienceError/rateLimitExhausted(until:)`` for a rate limit, which says when it resets,
/// else with ``ResilienceError/backingOff(retryAfter:)``. A wait longer than ``longestBackOff``
/// counts as that long, so that one hostile answer cannot shut a host out for days.
///
/// To change one piece of ``ResiliencePolicy/standard``:
/// ```swift
/// var policy = ResiliencePolicy.standard
/// policy.serverBackOff = ServerBackOff(maximumWait: 0)   // fail at once, never wait
/// ```
public struct ServerBackOff: Sendable, Hashable {
    /// The statuses whose `Retry-After` starts a back-off: 429 and 503 by default.
    public var statusCodes: Set<Int>
    /// The statuses that say a rate limit was hit, whose `Retry-After` or spent-limit fields
    /// (with a reset) start a back-off: 403 and 429 by default.
    public var rateLimitStatusCodes: Set<Int>
    /// The longest an attempt waits for a back-off to end, in seconds; `30` by default.
    public var maximumWait: TimeInterval
    /// The longest back-off one answer can start, in seconds; `3600` by default (an hour: the
    /// window of GitHub's and most APIs' rate limits).
    public var longestBackOff: TimeInterval

    /// Creates a back-off.
    /// - Parameters:
    ///   - statusCodes: The statuses whose `Retry-After` starts a back-off.
    ///   - rateLimitStatusCodes: The statuses that announce a spent rate limit.
    ///   - maximumWait: The longest an attempt waits, in seconds; 0 fails at once.
    ///   - longestBackOff: The longest back-off one answer can start, in seconds.
    public init(
        statusCodes: Set<Int> = [429, 503], rateLimitStatusCodes: Set<Int> = [403, 429],
        maximumWait: TimeInterval = 30, longestBackOff: TimeInterval = 3600
    ) {
        self.statusCodes = statusCodes
        self.rateLimitStatusCodes = rateLimitStatusCodes
        self.maximumWait = maximumWait.isFinite ? min(max(maximumWait, 0), Delay.maximumSeconds) : 30
        self.longestBackOff = longestBackOff.isFinite ? min(max(longestBackOff, 0), Delay.maximumSeconds) : 3600
    }

    /// The back-off of ``ResiliencePolicy/standard``.
    public static let standard = ServerBackOff()
}
