import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything that calls into one `URLSessionTask` on Linux, under its own lock: cancelling it,
/// answering its response disposition and redirects, and learning that it completed.
///
/// Cancelling a `URLSessionTask` on Linux has two ways to stop the process, and this lock closes
/// both. (1) `cancel()` does its work on URLSession's work queue; if the task completed meanwhile
/// and left the session's registry, that work hits a `fatalError` ("a task that is not in the
/// registry", swift-corelibs-foundation SR-11310). URLSession reports completion to the delegate
/// *before* it schedules the removal, so a task is cancelled only under this lock and only while
/// ``finish()`` has not run: the cancellation's work is then queued before the removal.
/// (2) Answering a response disposition or a redirect resumes a paused transfer, and resuming a
/// handle that a cancellation removed stops the process (libcurl error 43): answers are given
/// under this lock too, and not at all once the task is stopped.
///
/// `cancel()` waits for URLSession's work queue, and URLSession calls `needNewBodyStream` on that
/// queue, which takes the exchange's own lock: so this lock is separate from the exchange's, and
/// it is never taken while the exchange's is held.
final class TaskControl: Sendable {
    private struct State {
        var task: URLSessionTask?
        var stopped = false
        var finished = false
    }

    private let state = Locked(State())

    /// Remembers the running task; cancels it at once if it was stopped first.
    func attach(_ task: URLSessionTask) {
        state.withLock { state in
            state.task = task
            if state.stopped && !state.finished { task.cancel() }
        }
    }

    /// Cancels the task, unless URLSession reported it complete; no answer is given after this.
    func stop() {
        state.withLock { state in
            state.stopped = true
            if !state.finished { state.task?.cancel() }
        }
    }

    /// Runs `answer` (a disposition or a redirect's completion handler) unless the task was stopped.
    func answer(_ answer: () -> Void) {
        state.withLock { state in
            if !state.stopped { answer() }
        }
    }

    /// URLSession reported the task complete: it must not be cancelled from now on.
    func finish() {
        state.withLock { $0.finished = true }
    }
}
