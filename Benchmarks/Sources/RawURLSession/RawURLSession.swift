import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The hand-written baseline of a URLSession request that can be cancelled: a completion-handler
/// data task resumed through a continuation and cancelled with the calling task. Shared by
/// courier-bench and courier-engine-count, so both measure Courier against the same route.
public enum RawURLSession {
    /// A completion-handler data task, cancelled when the calling task is.
    public static func cancellable(_ session: URLSession, _ url: URL) async throws -> Data {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: URLRequest(url: url)) { data, _, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: data ?? Data())
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// The task of a request, cancelled when it arrives if cancellation came first.
    final class TaskBox: @unchecked Sendable {
        // Safe: `task` and `cancelled` are only touched under `lock`.
        private let lock = NSLock()
        private var task: URLSessionTask?
        private var cancelled = false

        func set(_ task: URLSessionTask) {
            lock.lock()
            defer { lock.unlock() }
            self.task = task
            if cancelled { task.cancel() }
        }

        func cancel() {
            lock.lock()
            defer { lock.unlock() }
            cancelled = true
            task?.cancel()
        }
    }
}
