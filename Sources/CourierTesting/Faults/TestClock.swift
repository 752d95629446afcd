import Courier
import Foundation

/// A clock that moves only when the test moves it: give it to a `Provider` (its
/// `clock`) and every retry delay, total timeout, `Retry-After` date and resilience policy reads
/// it, so that a ten-second outage runs in milliseconds and a run repeats exactly.
///
/// ```swift
/// let clock = TestClock()
/// let provider = Provider<API>(interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard, clock: clock))
/// let call = Task { try await provider.request(.me) }
/// try await clock.waitForSleepers(1)   // the retry delay has started
/// clock.advance(by: 1)                 // and is over
/// _ = try await call.value
/// ```
/// A sleeper wakes when the clock reaches its deadline; sleepers that wake together wake in
/// the order of their deadlines. A cancelled sleeper wakes at once with `CancellationError`.
public final class TestClock: ProviderClock {
    private struct Sleeper {
        let deadline: TimeInterval
        var continuation: CheckedContinuation<Void, any Error>?
        var woken: Result<Void, any Error>?
    }

    private struct State {
        var now: TimeInterval = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
        var watchers:
            [(id: UInt64, count: Int, wakingAt: TimeInterval?, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private let start: Date
    private let state = Locked(State())

    /// A clock at 0 seconds, whose date is `start`.
    /// - Parameter start: The date at 0 seconds; 14 November 2023 22:13:20 UTC by default.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.start = start
    }

    /// The seconds the test has moved the clock by.
    /// - Returns: The reading.
    public func now() -> TimeInterval { state.withLock { $0.now } }

    /// `start` plus ``now()``.
    /// - Returns: The date.
    public func date() -> Date { start.addingTimeInterval(now()) }

    /// Waits until the test moves the clock `seconds` further, or the task is cancelled.
    /// - Parameter seconds: How long to wait; zero or less returns at once.
    /// - Throws: `CancellationError` when the task is cancelled.
    public func sleep(seconds: TimeInterval) async throws {
        guard seconds > 0, !seconds.isNaN else { return try Task.checkCancellation() }
        let (id, watchers) = state.withLock { state in
            state.nextID += 1
            state.sleepers[state.nextID] = Sleeper(deadline: state.now + seconds)
            return (state.nextID, Self.satisfiedWatchers(&state))
        }
        for watcher in watchers { watcher.resume(returning: true) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early = state.withLock { state -> Result<Void, any Error>? in
                    guard let woken = state.sleepers[id]?.woken else {
                        state.sleepers[id]?.continuation = continuation
                        return nil
                    }
                    state.sleepers[id] = nil
                    return woken
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            wake([id], with: .failure(CancellationError()))
        }
    }

    /// How many sleepers wait now.
    public var sleepers: Int { state.withLock { $0.sleepers.values.filter { $0.woken == nil }.count } }

    /// The earliest deadline of a sleeper, or `nil` when none waits.
    public var nextDeadline: TimeInterval? {
        state.withLock { $0.sleepers.values.filter { $0.woken == nil }.map(\.deadline).min() }
    }

    /// Moves the clock `seconds` forward and wakes every sleeper whose deadline it reaches.
    /// - Parameter seconds: How far; a negative value does nothing.
    public func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [UInt64] in
            state.now += max(0, seconds)
            let now = state.now
            return state.sleepers.filter { $0.value.woken == nil && $0.value.deadline <= now }
                .sorted { $0.value.deadline < $1.value.deadline }.map(\.key)
        }
        wake(due, with: .success(()))
    }

    /// Waits (in real time, at most `timeout` seconds) until at least `count` sleepers wait: the
    /// way a test knows that the code under test reached its delay.
    /// - Parameters:
    ///   - count: The sleepers to wait for.
    ///   - wakingAt: Counts only the sleepers that wake at this reading, to tell one delay from
    ///     another (a retry delay from a timeout, say); any sleeper by default.
    ///   - timeout: The longest to wait, in real seconds; 5 by default.
    /// - Throws: ``TestClockError/sleepersDidNotArrive(expected:waiting:)`` when they do not come in time.
    public func waitForSleepers(_ count: Int, wakingAt: TimeInterval? = nil, timeout: TimeInterval = 5) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let expiry = Task {
            try await Task.sleep(nanoseconds: UInt64(min(max(0, timeout), 3600) * 1_000_000_000))
            self.dropWatcher(id)?.resume(returning: false)
        }
        defer { expiry.cancel() }
        let arrived = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let ready = state.withLock { state -> Bool in
                if Self.waiting(state, wakingAt: wakingAt) >= count { return true }
                state.watchers.append((id, count, wakingAt, continuation))
                return false
            }
            if ready { continuation.resume(returning: true) }
        }
        if !arrived { throw TestClockError.sleepersDidNotArrive(expected: count, waiting: sleepers) }
    }

    private func dropWatcher(_ id: UInt64) -> CheckedContinuation<Bool, Never>? {
        state.withLock { state in
            guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.watchers.remove(at: index).continuation
        }
    }

    private static func waiting(_ state: State, wakingAt: TimeInterval? = nil) -> Int {
        state.sleepers.values.reduce(0) { count, sleeper in
            count + (sleeper.woken == nil && wakingAt.map { abs(sleeper.deadline - $0) < 1e-9 } ?? true ? 1 : 0)
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Bool, Never>] {
        let ready = state.watchers.filter { $0.count <= waiting(state, wakingAt: $0.wakingAt) }
        state.watchers.removeAll { watcher in ready.contains { $0.id == watcher.id } }
        return ready.map(\.continuation)
    }

    private func wake(_ ids: [UInt64], with result: Result<Void, any Error>) {
        let resumes = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            ids.compactMap { id in
                guard var sleeper = state.sleepers[id], sleeper.woken == nil else { return nil }
                guard let continuation = sleeper.continuation else {
                    sleeper.woken = result
                    state.sleepers[id] = sleeper
                    return nil
                }
                state.sleepers[id] = nil
                return continuation
            }
        }
        for continuation in resumes { continuation.resume(with: result) }
    }
}

/// Why a ``TestClock`` wait failed.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum TestClockError: Error, Equatable {
    /// Fewer sleepers than `expected` arrived in time; `waiting` did.
    case sleepersDidNotArrive(expected: Int, waiting: Int)
}
