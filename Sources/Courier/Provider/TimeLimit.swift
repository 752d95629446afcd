import Foundation

/// The provider's own total timeout, for a transport that does not enforce
/// ``TransportRequest/timeout`` itself (see ``TransportCapabilities/timeouts``): the caller gets
/// ``TransportFailure/Kind/timedOut`` when time runs out, and a cancellation when cancelled, at
/// once, even if the transport ignores the cancellation it is then given.
package enum TimeLimit {
    /// Runs `operation` for at most `seconds`.
    /// - Parameters:
    ///   - seconds: The limit.
    ///   - clock: The clock the limit is measured on, slept on by a task; `nil` (the default) for
    ///     the system's, which `timers` measures.
    ///   - timers: The timer of the caller's limits on the system's clock (a provider's, so that
    ///     a limit is an entry and not a timer source of its own); `nil` for one of this call's.
    ///   - discard: Cleans up a result that arrives after the limit (a downloaded file, say).
    ///   - operation: The work; cancelled when time runs out or the caller is cancelled.
    /// - Returns: What `operation` returned in time.
    /// - Throws: What `operation` threw in time, or ``TransportFailure/Kind/timedOut``.
    package static func run<Value: Sendable>(
        seconds: TimeInterval, clock: (any ProviderClock)? = nil, timers: DeadlineTimers? = nil,
        discard: @escaping @Sendable (Value) -> Void,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = Race<Value>(discard: discard)
        let work = Task { race.finish(with: await Result(catching: operation)) }
        let expire: @Sendable () -> Void = {
            race.finish(with: .failure(TransportFailure(kind: .timedOut, underlyingError: URLError(.timedOut))))
            work.cancel()
        }
        let limit = min(max(seconds, 0), Delay.maximumSeconds)
        // Another clock than the system's (a test's) is slept on; the system's needs no task.
        var sleeper: Task<Void, Never>?
        var scheduled: (timers: DeadlineTimers, token: DeadlineTimers.Token)?
        if let clock {
            sleeper = Task {
                guard (try? await clock.sleep(seconds: limit)) != nil else { return }
                expire()
            }
        } else {
            let timers = timers ?? DeadlineTimers()
            scheduled = (timers, timers.schedule(after: limit, expire))
        }
        defer {
            sleeper?.cancel()
            if let scheduled { scheduled.timers.cancel(scheduled.token) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
            }
        } onCancel: {
            race.finish(with: .failure(CancellationError()))
            work.cancel()
        }
    }
}

/// The first of the work's result and the timer, handed to the waiting caller once. (A checked
/// continuation: an unsafe one saves its allocation, but ThreadSanitizer reports the runtime's
/// hand-over of its result as a data race, which CI's sanitizer run must not.)
private final class Race<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var finished = false
    }

    private let state = Locked(State())
    private let discard: @Sendable (Value) -> Void

    init(discard: @escaping @Sendable (Value) -> Void) {
        self.discard = discard
    }

    /// Starts waiting; resumes at once when the result came first.
    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Hands `result` to the caller when it is the first; a later one is discarded.
    func finish(with result: Result<Value, any Error>) {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Value, any Error>?) in
            guard !state.finished else { return (false, nil) }
            state.finished = true
            if state.continuation == nil { state.early = result }
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        if !first, case .success(let late) = result { discard(late) }
        waiting?.resume(with: result)
    }
}

extension Result where Failure == any Error {
    /// The result of an asynchronous throwing operation.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
