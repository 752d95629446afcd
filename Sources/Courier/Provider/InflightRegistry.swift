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
///
/// When the exchange ends, its callers deliver the outcome one after another, in the order they
/// joined (each its `process` and its completion, `deliver`), as Moya calls its completions; until
/// the last has, the flight is listed in ``snapshot()`` (Moya's `inflightRequests`), though no
/// request can join it any more: an identical request starts a flight of its own.
final class InflightRegistry: Sendable {
    typealias Outcome = Result<Response, CourierError>

    /// What a waiting caller is given: the outcome, and the flight whose turns it takes (`nil`
    /// for a caller that left).
    private struct Delivered {
        let outcome: Outcome
        let flight: UInt64?
    }

    /// A flight whose exchange has ended, while its callers deliver in turn.
    private struct Delivery {
        let request: URLRequest?
        var order: [UInt64]
        var next = 0
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private struct Flight {
        let id: UInt64
        var waiters: [UInt64: CheckedContinuation<Delivered, Never>] = [:]
        var task: Task<Void, Never>?
        let progress = ProgressFanOut()
    }

    private struct State {
        var flights: [RequestKey: Flight] = [:]
        var delivering: [UInt64: Delivery] = [:]
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

    /// Every request in flight, or whose callers are still delivering its outcome, with how many
    /// callers share it.
    func snapshot() -> [URLRequest: Int] {
        state.withLock { state in
            let flying = state.flights.compactMap { key, flight in key.request.map { ($0, flight.waiters.count) } }
            let delivering = state.delivering.values.compactMap { delivery in
                delivery.request.map { ($0, delivery.order.count) }
            }
            return Dictionary(flying + delivering, uniquingKeysWith: +)
        }
    }

    /// Joins the flight of `key`, starting it with `work` if there is none, and returns what
    /// `deliver` makes of its outcome, `deliver` running in the caller's turn (see above).
    /// `progress` receives the flight's progress until the caller leaves or the flight ends.
    func perform(
        key: RequestKey, progress: ProgressReporter?, work: @escaping @Sendable (any ProgressSink) async -> Outcome,
        deliver: (Outcome) async -> Outcome
    ) async -> Outcome {
        let caller = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        let delivered = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                join(key: key, caller: caller, progress: progress, continuation: continuation, work: work)
            }
        } onCancel: {
            leave(key: key, caller: caller)
        }
        guard let flight = delivered.flight else { return await deliver(delivered.outcome) }
        await turn(of: caller, in: flight)
        let result = await deliver(delivered.outcome)
        passTurn(in: flight)
        return result
    }

    /// Waits until the callers of `flight` that joined before `caller` have delivered.
    private func turn(of caller: UInt64, in flight: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard let delivery = state.delivering[flight], delivery.order[delivery.next] != caller else {
                    return true
                }
                state.delivering[flight]?.waiting[caller] = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Gives the turn to the next caller of `flight`; after the last, the flight leaves the table.
    private func passTurn(in flight: UInt64) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var delivery = state.delivering[flight] else { return nil }
            delivery.next += 1
            guard delivery.next < delivery.order.count else {
                state.delivering[flight] = nil
                return nil
            }
            let continuation = delivery.waiting.removeValue(forKey: delivery.order[delivery.next])
            state.delivering[flight] = delivery
            return continuation
        }
        next?.resume()
    }

    private func join(
        key: RequestKey, caller: UInt64, progress: ProgressReporter?,
        continuation: CheckedContinuation<Delivered, Never>,
        work: @escaping @Sendable (any ProgressSink) async -> Outcome
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
        case nil: continuation.resume(returning: Delivered(outcome: .failure(.cancelled), flight: nil))
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
        let waiters = state.withLock { state -> [CheckedContinuation<Delivered, Never>] in
            guard state.flights[key]?.id == flight, let ended = state.flights.removeValue(forKey: key) else {
                return []
            }
            // Caller numbers grow as callers come: their order is the order they joined.
            let order = ended.waiters.keys.sorted()
            if !order.isEmpty { state.delivering[flight] = Delivery(request: key.request, order: order) }
            return order.compactMap { ended.waiters[$0] }
        }
        for waiter in waiters {
            waiter.resume(returning: Delivered(outcome: outcome, flight: flight))
        }
    }

    private func leave(key: RequestKey, caller: UInt64) {
        let (waiter, abandonedTask) = state.withLock {
            state -> (CheckedContinuation<Delivered, Never>?, Task<Void, Never>?) in
            guard let waiter = state.flights[key]?.waiters.removeValue(forKey: caller) else { return (nil, nil) }
            // No report reaches a caller once it has left.
            state.flights[key]?.progress.remove(caller)
            guard state.flights[key]?.waiters.isEmpty == true else { return (waiter, nil) }
            return (waiter, state.flights.removeValue(forKey: key)?.task)
        }
        waiter?.resume(returning: Delivered(outcome: .failure(.cancelled), flight: nil))
        abandonedTask?.cancel()
    }
}
