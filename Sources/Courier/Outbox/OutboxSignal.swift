import Foundation

/// A wake-up for the tasks that wait on an outbox: its sender (for a new entry, a flush, a
/// close) and its outcome readers (for a new outcome). A waiter reads ``generation`` before it
/// looks for work and waits only while no raise came since, so that a raise between its look and
/// its wait is never missed.
final class OutboxSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// The number of raises so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter.
    func raise() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a raise after `generation`; returns at once when one came already, or when the
    /// task is cancelled.
    func wait(since generation: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters[id] = waiter
                    return false
                }
                if now { waiter.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits for a raise after `generation`, at most `seconds` on `clock`.
    func wait(since generation: UInt64, atMost seconds: TimeInterval, on clock: any ProviderClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(seconds: seconds) }
            group.addTask { await self.wait(since: generation) }
            await group.next()
            group.cancelAll()
        }
    }
}
