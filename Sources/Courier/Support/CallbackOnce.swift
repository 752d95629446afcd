import Foundation

/// Hands the first of several results to a continuation, whichever comes first: a callback, a
/// cancellation, or a result that arrives before the continuation exists (a task cancelled before
/// it began). Later results are dropped, so the continuation resumes exactly once.
final class CallbackOnce<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, CourierError>?
        var finished = false
    }

    private let state = Locked(State())

    /// Gives the continuation; resumes it at once if a result came first.
    func arm(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, CourierError>? = state.withLock { state in
            guard !state.finished else { return nil }
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.finished = true
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Resumes the continuation with `result` if nothing did before.
    func resume(with result: Result<Value, CourierError>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard !state.finished, state.early == nil else { return nil }
            guard let continuation = state.continuation else {
                state.early = result
                return nil
            }
            state.finished = true
            return continuation
        }
        continuation?.resume(with: result)
    }
}
