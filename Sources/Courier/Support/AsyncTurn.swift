/// One holder at a time, in the order they came: for an async section that must not overlap
/// itself (a socket's reads). A waiter cancelled before its turn leaves the line at once with
/// `CancellationError`; the turn is never lost.
final class AsyncTurn: Sendable {
    private struct State {
        var held = false
        var nextWaiter: UInt64 = 0
        /// Waiters in the order they came.
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Locked(State())

    /// Waits for the turn; the caller calls ``release()`` once done.
    /// - Throws: `CancellationError` when the task is cancelled before its turn came.
    func acquire() async throws {
        let id = state.withLock { state -> UInt64? in
            guard state.held else {
                state.held = true
                return nil
            }
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiters.append((id, waiter))
                    return false
                }
                if cancelled { waiter.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Hands the turn to the first waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
