import Foundation

/// The state of a ``ConcurrencyLimit``: the places taken and the attempts queued for one, first
/// come first served. A released place goes straight to the first in the queue.
final class Bulkhead: Sendable {
    private struct Entry {
        var continuation: CheckedContinuation<Void, any Error>?
        /// How the wait ended before its continuation was stored.
        var early: Result<Void, any Error>?
    }

    private struct State {
        var inFlight = 0
        var queue: [UInt64] = []
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
    }

    let limit: ConcurrencyLimit
    private let state = Locked(State())

    init(_ limit: ConcurrencyLimit) {
        self.limit = limit
    }

    /// Places taken now, and attempts waiting.
    var load: (inFlight: Int, queued: Int) { state.withLock { ($0.inFlight, $0.queue.count) } }

    /// Takes a place if one is free and no attempt is queued for one.
    /// - Returns: Whether it took one.
    func tryAcquire() -> Bool {
        state.withLock { state in
            guard state.inFlight < limit.maximum, state.queue.isEmpty else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Takes a place, waiting in the queue when every place is taken, at most the limit's queue
    /// timeout or `patience` seconds (what is left of the request's time), whichever is shorter.
    /// - Returns: The seconds waited (0 when a place was free).
    /// - Throws: ``ResilienceError/queueFull``, ``ResilienceError/queueTimedOut(after:)``, or
    ///   `CancellationError` when the task was cancelled while it waited.
    func acquire(clock: any ProviderClock, patience: TimeInterval = .infinity) async throws -> TimeInterval {
        let queued = try state.withLock { state throws(ResilienceError) -> UInt64? in
            if state.inFlight < limit.maximum {
                state.inFlight += 1
                return nil
            }
            guard state.queue.count < limit.queueLimit else { throw .queueFull }
            state.nextID += 1
            state.queue.append(state.nextID)
            state.entries[state.nextID] = Entry()
            return state.nextID
        }
        guard let id = queued else { return 0 }
        let start = clock.now()
        let timeout = max(0, min(limit.queueTimeout, patience))
        let timer = Task { [self] in
            try await clock.sleep(seconds: timeout)
            leave(id, with: ResilienceError.queueTimedOut(after: timeout))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early = state.withLock { state -> Result<Void, any Error>? in
                    if let early = state.entries[id]?.early {
                        state.entries[id] = nil
                        return early
                    }
                    state.entries[id]?.continuation = continuation
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            leave(id, with: CancellationError())
        }
        return max(0, clock.now() - start)
    }

    /// Gives a place back: to the first queued attempt, or to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.queue.isEmpty else {
                state.inFlight = max(0, state.inFlight - 1)
                return nil
            }
            let id = state.queue.removeFirst()
            return Self.settle(id, .success(()), in: &state)
        }
        next?.resume()
    }

    /// Ends a queued attempt's wait with `error`, when it is still queued.
    private func leave(_ id: UInt64, with error: any Error) {
        let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard let index = state.queue.firstIndex(of: id) else { return nil }
            state.queue.remove(at: index)
            return Self.settle(id, .failure(error), in: &state)
        }
        waiting?.resume(throwing: error)
    }

    /// The continuation to resume with `result`, or `nil` after noting it for a waiter that has
    /// not stored its continuation yet.
    private static func settle(
        _ id: UInt64, _ result: Result<Void, any Error>, in state: inout State
    ) -> CheckedContinuation<Void, any Error>? {
        guard let continuation = state.entries[id]?.continuation else {
            state.entries[id]?.early = result
            return nil
        }
        state.entries[id] = nil
        return continuation
    }
}
