import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests in flight of a provider with `trackInflights`: identical requests share one
/// exchange, run in its own task, whose outcome every caller receives.
///
/// Joining, leaving and finishing all happen under one lock, so a request can never join a flight
/// that has already delivered its outcome, and a flight always leaves the table when it ends,
/// whatever the outcome. A caller that is cancelled leaves at once with ``CourierError/cancelled``;
/// the shared exchange is cancelled only when every caller has left.
final class InflightRegistry: Sendable {
    typealias Outcome = Result<Response, CourierError>

    private struct Flight {
        let id: UInt64
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        var task: Task<Void, Never>?
    }

    private struct State {
        var flights: [RequestKey: Flight] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Whether a flight for `key` is in the table.
    func isInFlight(_ key: RequestKey) -> Bool {
        state.withLock { $0.flights[key] != nil }
    }

    /// How many callers wait on the flight of `key`.
    func callers(for key: RequestKey) -> Int {
        state.withLock { $0.flights[key]?.waiters.count ?? 0 }
    }

    /// Joins the flight of `key`, starting it with `work` if there is none, and returns its outcome.
    func perform(key: RequestKey, work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let caller = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                join(key: key, caller: caller, continuation: continuation, work: work)
            }
        } onCancel: {
            leave(key: key, caller: caller)
        }
    }

    private func join(
        key: RequestKey, caller: UInt64, continuation: CheckedContinuation<Outcome, Never>,
        work: @escaping @Sendable () async -> Outcome
    ) {
        let startsFlight: Bool? = state.withLock { state in
            // Checked under the lock that `leave` takes, so a cancellation is never missed.
            if Task.isCancelled { return nil }
            if state.flights[key] != nil {
                state.flights[key]?.waiters[caller] = continuation
                return false
            }
            state.flights[key] = Flight(id: caller, waiters: [caller: continuation])
            return true
        }
        switch startsFlight {
        case nil: continuation.resume(returning: .failure(.cancelled))
        case true?: start(key: key, flight: caller, work: work)
        case false?: break
        }
    }

    private func start(key: RequestKey, flight: UInt64, work: @escaping @Sendable () async -> Outcome) {
        let task = Task {
            let outcome = await work()
            self.finish(key: key, flight: flight, with: outcome)
        }
        let abandoned = state.withLock { state in
            guard state.flights[key]?.id == flight else { return true }
            state.flights[key]?.task = task
            return false
        }
        if abandoned { task.cancel() }
    }

    private func finish(key: RequestKey, flight: UInt64, with outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard state.flights[key]?.id == flight else { return [] }
            return state.flights.removeValue(forKey: key).map { Array($0.waiters.values) } ?? []
        }
        for waiter in waiters {
            waiter.resume(returning: outcome)
        }
    }

    private func leave(key: RequestKey, caller: UInt64) {
        let (waiter, abandonedTask) = state.withLock {
            state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
            guard let waiter = state.flights[key]?.waiters.removeValue(forKey: caller) else { return (nil, nil) }
            guard state.flights[key]?.waiters.isEmpty == true else { return (waiter, nil) }
            return (waiter, state.flights.removeValue(forKey: key)?.task)
        }
        waiter?.resume(returning: .failure(.cancelled))
        abandonedTask?.cancel()
    }
}
