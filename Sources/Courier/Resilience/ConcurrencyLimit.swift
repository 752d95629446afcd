import Foundation

/// At most ``maximum`` exchanges of a scope in flight at once (a bulkhead), with a bounded queue
/// for the rest.
///
/// An attempt that finds every place taken waits in a queue of at most ``queueLimit`` attempts,
/// first come first served, for at most ``queueTimeout`` seconds; one that finds the queue full,
/// or waits too long, fails with ``ResilienceError/queueFull`` or
/// ``ResilienceError/queueTimedOut(after:)``. A queued request that is cancelled leaves the queue
/// at once. A place is held from when the exchange starts until its response has arrived (for a
/// streamed response, until its head has), never during a retry delay.
/// ```swift
/// let policy = ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 8, queueLimit: 64))
/// ```
public struct ConcurrencyLimit: Sendable, Hashable {
    /// The most exchanges in flight at once.
    public var maximum: Int
    /// The most attempts waiting for a place; 0 fails at once when every place is taken.
    public var queueLimit: Int
    /// The longest an attempt waits for a place, in seconds; `30` by default.
    public var queueTimeout: TimeInterval

    /// Creates a limit.
    /// - Parameters:
    ///   - maximum: The most exchanges in flight at once (at least 1).
    ///   - queueLimit: The most attempts waiting for a place; 0 by default.
    ///   - queueTimeout: The longest an attempt waits for a place, in seconds.
    public init(maximum: Int, queueLimit: Int = 0, queueTimeout: TimeInterval = 30) {
        self.maximum = max(1, maximum)
        self.queueLimit = max(0, queueLimit)
        self.queueTimeout = queueTimeout.isFinite ? min(max(queueTimeout, 0), Delay.maximumSeconds) : 30
    }

    /// The limit of ``ResiliencePolicy/standard``: .NET's, 1,000 in flight and no queue, a guard
    /// against runaway fan-out rather than a tuned limit.
    public static let standard = ConcurrencyLimit(maximum: 1000)
}
