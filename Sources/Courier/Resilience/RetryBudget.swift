import Foundation

/// How many retries a scope's requests may make: a share of its recent requests plus a small
/// floor, so that retries cannot multiply the load on a dependency that is failing.
///
/// Every request deposits when it starts; every retry the retrier asks for (``RetryPolicy``'s,
/// an ``AuthenticationInterceptor``'s re-send) and every hedge withdraws. Within the last
/// ``window`` seconds, retries may number at most `ratio × requests + minimumPerSecond × window`.
/// A retry the budget refuses is not made: the request ends with its attempt's own error, and
/// the attempt's ``AttemptMetrics/retryRefusal`` is ``RetryRefusal/retryBudget``.
///
/// The shape is Finagle's `RetryBudget` (20 % of requests plus 10 retries a second, over 10 s)
/// and close to gRPC's retry throttling and the AWS SDKs' retry quota:
/// ```swift
/// let budget = RetryBudget(ratio: 0.1, minimumPerSecond: 1)
/// ```
public struct RetryBudget: Sendable, Hashable {
    /// The retries allowed per request in the window; `0.2` by default (one retry in five requests).
    public var ratio: Double
    /// The retries allowed per second whatever the traffic, so that a quiet client can retry;
    /// `10` by default.
    public var minimumPerSecond: Double
    /// How far back requests and retries count, in seconds; `10` by default.
    public var window: TimeInterval

    /// Creates a budget; the defaults are Finagle's.
    /// - Parameters:
    ///   - ratio: The retries allowed per request in the window.
    ///   - minimumPerSecond: The retries allowed per second whatever the traffic.
    ///   - window: How far back requests and retries count, in seconds.
    public init(ratio: Double = 0.2, minimumPerSecond: Double = 10, window: TimeInterval = 10) {
        self.ratio = max(0, ratio.isFinite ? ratio : 0)
        self.minimumPerSecond = max(0, minimumPerSecond.isFinite ? minimumPerSecond : 0)
        self.window = window.isFinite ? min(max(window, 1), 3600) : 10
    }

    /// The budget of ``ResiliencePolicy/standard``: 20 % of requests plus 10 retries a second.
    public static let standard = RetryBudget()
}
