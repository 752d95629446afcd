import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw URLSession variants, to tell the transport's cost from the pipeline's.
enum RawVariants {
    /// A completion-handler data task wrapped in a continuation.
    static func completion(_ session: URLSession, _ url: URL) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: URLRequest(url: url)) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }.resume()
        }
    }

    /// A completion-handler download task, its file moved to `destination`.
    static func download(_ session: URLSession, _ url: URL, to destination: URL) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.downloadTask(with: URLRequest(url: url)) { location, _, error in
                do {
                    if let error { throw error }
                    guard let location else { throw URLError(.cannotCreateFile) }
                    try? FileManager.default.removeItem(at: destination)
                    try FileManager.default.moveItem(at: location, to: destination)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
    }

    /// A data task driven by a minimal session delegate.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Benchmark-only: touched on the session's serial delegate queue, and by `get` before resume.
        var continuations: [Int: CheckedContinuation<Data, any Error>] = [:]
        var buffers: [Int: Data] = [:]
        let lock = NSLock()

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            buffers[dataTask.taskIdentifier, default: Data()].append(data)
            lock.unlock()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            lock.lock()
            let continuation = continuations.removeValue(forKey: task.taskIdentifier)
            let data = buffers.removeValue(forKey: task.taskIdentifier) ?? Data()
            lock.unlock()
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume(returning: data) }
        }

        func get(_ session: URLSession, _ url: URL) async throws -> Data {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: URLRequest(url: url))
                lock.lock()
                continuations[task.taskIdentifier] = continuation
                lock.unlock()
                task.resume()
            }
        }
    }

    /// A data task whose chunks a minimal delegate writes to a file as they arrive: the floor for
    /// any download that URLSession delivers chunk by chunk through the delegate queue, as
    /// Courier's does (it uses no download task on Linux; see `DownloadFile`).
    final class FileDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Safe: `handle` and `continuation` are set by `download` before the task resumes and
        // touched afterwards only on the session's serial delegate queue.
        private var handle: FileHandle?
        private var continuation: CheckedContinuation<Void, any Error>?

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            handle?.write(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            try? handle?.close()
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
            continuation = nil
        }

        /// Downloads `url` into `destination`, one write per chunk.
        func download(_ session: URLSession, _ url: URL, to destination: URL) async throws {
            guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                throw URLError(.cannotCreateFile)
            }
            handle = try FileHandle(forWritingTo: destination)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                self.continuation = continuation
                session.dataTask(with: URLRequest(url: url)).resume()
            }
        }
    }
}
