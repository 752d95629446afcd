import Foundation

/// The time limits of a streamed attempt, which the provider enforces over any transport: the
/// target's `timeoutInterval` bounds each wait (for the head, then for every next chunk), never
/// the whole body, so a healthy stream that goes on for longer is never cut; the request's
/// `totalTimeoutInterval`, when set, bounds everything.
struct StreamTimeouts: Sendable {
    /// The idle limit (the target's `timeoutInterval`) and the request's deadline.
    private let timeouts: Timeouts

    /// The limits of an attempt whose request has `timeouts`.
    init(_ timeouts: Timeouts) {
        self.timeouts = timeouts
    }

    /// The longest the next wait may take: the idle limit or what is left of the deadline,
    /// whichever is shorter; `nil` when nothing bounds it.
    var nextWait: TimeInterval? { timeouts.forExchange }

    /// What a streaming transport enforces by itself over the whole exchange: only the deadline.
    var forExchange: TimeInterval? {
        timeouts.deadline.map { max(0.001, $0.remaining) }
    }

    /// Runs `wait`, failing with ``TransportFailure/Kind/timedOut`` (and cancelling it) when it
    /// takes longer than ``nextWait``.
    /// - Parameter wait: The wait, such as a body's next chunk; a late result is dropped.
    /// - Returns: What `wait` returned in time.
    func bound<Value: Sendable>(_ wait: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard let seconds = nextWait else { return try await wait() }
        return try await TimeLimit.run(
            seconds: seconds, clock: timeouts.limitClock, timers: timeouts.timers, discard: { _ in }, wait)
    }
}
