import Foundation

/// The time a provider reads: for retry delays, the total timeout, `Retry-After` dates and every
/// resilience policy (budgets, breakers, limits, back-off, hedging).
///
/// The default, ``SystemClock``, is the machine's. CourierTesting's `TestClock` is one a test
/// moves itself, so that a ten-second outage and its retries run in milliseconds:
/// ```swift
/// let clock = TestClock()
/// let provider = Provider<API>(options: ProviderOptions(resilience: .standard, clock: clock))
/// ```
/// Write your own only to put a provider on another timeline; every method may be called on any
/// thread.
public protocol ProviderClock: Sendable {
    /// Seconds since a fixed point of this clock's choosing, never going back: what intervals
    /// are measured with.
    /// - Returns: The current reading.
    func now() -> TimeInterval

    /// The calendar date now, for HTTP dates such as a `Retry-After` date.
    /// - Returns: The date.
    func date() -> Date

    /// Waits `seconds` on this clock; a zero, negative or NaN value returns at once.
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled during the wait.
    func sleep(seconds: TimeInterval) async throws
}

/// The machine's clock: monotonic uptime for intervals, the system date for dates.
public struct SystemClock: ProviderClock {
    /// Creates the system clock.
    public init() {}

    /// Seconds of uptime (the monotonic clock, which does not jump when the date is set).
    /// - Returns: The current reading.
    public func now() -> TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// The system date.
    /// - Returns: `Date()`.
    public func date() -> Date { Date() }

    /// Sleeps with `Task.sleep`, ending early when the task is cancelled.
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(seconds: TimeInterval) async throws {
        try await Delay.sleep(seconds: seconds)
    }
}

extension ProviderClock where Self == SystemClock {
    /// The machine's clock.
    public static var system: SystemClock { SystemClock() }
}
