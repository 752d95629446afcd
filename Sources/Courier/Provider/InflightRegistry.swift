import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests in flight of a provider with `trackInflights`: identical requests share one
/// exchange, run in its own task, whose outcome every caller receives, and whose progress each
/// caller receives while it waits (``ProgressFanOut``).
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
        let progress = ProgressFanOut()
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

    /// Every request in flight, with how many callers share it.
    func snapshot() -> [URLRequest: Int] {
        state.withLock { state in
            Dictionary(
                state.flights.compactMap { key, flight in key.request.map { ($0, flight.waiters.count) } },
                uniquingKeysWith: +)
        }
    }

    /// Joins the flight of `key`, starting it with `work` if there is none, and returns its outcome.
    /// `progress` receives the flight's progress until the caller leaves or the flight ends.
    func perform(
        key: RequestKey, progress: ProgressReporter?, work: @escaping @Sendable (any ProgressSink) async -> Outcome
    ) async -> Outcome {
        let caller = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                join(key: key, caller: caller, progress: progress, continuation: continuation, work: work)
            }
        } onCancel: {
            leave(key: key, caller: caller)
        }
    }

    private func join(
        key: RequestKey, caller: UInt64, progress: ProgressReporter?,
        continuation: CheckedContinuation<Outcome, Never>, work: @escaping @Sendable (any ProgressSink) async -> Outcome
    ) {
        let startsFlight: ProgressFanOut?? = state.withLock { state in
            // Checked under the lock that `leave` takes, so a cancellation is never missed.
            if Task.isCancelled { return nil }
            if let flight = state.flights[key] {
                state.flights[key]?.waiters[caller] = continuation
                flight.progress.add(progress, for: caller)
                return .some(nil)
            }
            let flight = Flight(id: caller, waiters: [caller: continuation])
            flight.progress.add(progress, for: caller)
            state.flights[key] = flight
            return flight.progress
        }
        switch startsFlight {
        case nil: continuation.resume(returning: .failure(.cancelled))
        case let fanOut??: start(key: key, flight: caller, progress: fanOut, work: work)
        case .some(nil): break
        }
    }

    private func start(
        key: RequestKey, flight: UInt64, progress: ProgressFanOut,
        work: @escaping @Sendable (any ProgressSink) async -> Outcome
    ) {
        let task = Task {
            let outcome = await work(progress)
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
            // No report reaches a caller once it has left.
            state.flights[key]?.progress.remove(caller)
            guard state.flights[key]?.waiters.isEmpty == true else { return (waiter, nil) }
            return (waiter, state.flights.removeValue(forKey: key)?.task)
        }
        waiter?.resume(returning: .failure(.cancelled))
        abandonedTask?.cancel()
    }
}
