/// Waiting for a task that others may wait for too, in a way the waiter's cancellation ends at
/// once, without cancelling the shared task.
enum SharedTask {
    /// The value of `task`; throws `CancellationError` as soon as the calling task is cancelled.
    static func value<Value: Sendable>(of task: Task<Value, any Error>) async throws -> Value {
        let slot = Locked<CheckedContinuation<Value, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Checked under the lock the cancellation handler takes, so a cancellation that
                // came first is never missed.
                let cancelled = slot.withLock { stored in
                    if Task.isCancelled { return true }
                    stored = continuation
                    return false
                }
                if cancelled { return continuation.resume(throwing: CancellationError()) }
                Task {
                    let result = await task.result
                    take(slot)?.resume(with: result)
                }
            }
        } onCancel: {
            take(slot)?.resume(throwing: CancellationError())
        }
    }

    private static func take<Value>(
        _ slot: Locked<CheckedContinuation<Value, any Error>?>
    ) -> CheckedContinuation<Value, any Error>? {
        slot.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }
}
