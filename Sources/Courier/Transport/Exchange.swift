import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request and its response as they pass through ``URLSessionTransport``: the body, buffered
/// once in memory or written to a file Courier owns, the progress counts, the continuation that is
/// resumed exactly once, and the task to cancel.
final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var task: URLSessionTask?
        var cancelRequested = false
        var response: HTTPURLResponse?
        var challengeResponse: HTTPURLResponse?
        var body = Data()
        var receivedBytes: Int64 = 0
        var expectedBytes: Int64?
        var writeFailed = false
        var timedOut = false
        var timer: DispatchWorkItem?
        var redirect: URLRequest?
    }

    /// The largest body size reserved up front from a `Content-Length`; larger bodies grow as
    /// they arrive, so a lying header cannot make Courier allocate gigabytes at once.
    private static let maximumReservation = 16 << 20

    private let state = Locked(State())
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// The file a download is written to, when the request writes to a file.
    private let sink: DownloadFile?
    /// A temporary file (an encoded multipart body) to delete when the task ends.
    private let temporaryBody: URL?

    init(progress: (@Sendable (TransferProgress) -> Void)?, sink: DownloadFile?, temporaryBody: URL?) {
        self.progress = progress
        self.sink = sink
        self.temporaryBody = temporaryBody
    }

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Remembers the running task; cancels it at once if cancellation came first.
    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
    }

    /// Fails the exchange with a timeout `seconds` from now, unless it ends first.
    func expire(after seconds: TimeInterval) {
        let timer = DispatchWorkItem { [weak self] in self?.expire() }
        state.withLock { $0.timer = timer }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds), execute: timer)
    }

    private func expire() {
        let task = state.withLock { state in
            state.timedOut = true
            return state.task
        }
        task?.cancel()
    }

    func receive(_ response: HTTPURLResponse) {
        // Interim 1xx responses (100 Continue) are not the answer; wait for the final one.
        guard response.statusCode >= 200 || response.statusCode == 101 else { return }
        let length = response.expectedContentLength
        // A compressed body arrives decompressed, so its Content-Length is not the total.
        let expected = length > 0 && response.value(forHTTPHeaderField: "Content-Encoding") == nil ? length : nil
        state.withLock { state in
            state.response = response
            state.body = Data()
            state.receivedBytes = 0
            state.expectedBytes = expected
            if sink == nil, let expected {
                state.body.reserveCapacity(Int(min(expected, Int64(Self.maximumReservation))))
            }
        }
    }

    func receive(_ data: Data) {
        let written = sink.map { $0.write(data) } ?? true
        let (received, expected, task) = state.withLock { state in
            if sink == nil { state.body.append(data) }
            if !written { state.writeFailed = true }
            state.receivedBytes += Int64(data.count)
            return (state.receivedBytes, state.expectedBytes, written ? nil : state.task)
        }
        task?.cancel()
        progress?(TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected))
    }

    func sent(_ bytes: Int64, of expected: Int64) {
        progress?(
            TransferProgress(direction: .upload, completedBytes: bytes, expectedBytes: expected > 0 ? expected : nil))
    }

    /// Records the request a 307/308 leads to, for the transport to send itself.
    func redirect(to request: URLRequest) {
        state.withLock { $0.redirect = request }
    }

    /// The request a 307/308 led to, if the exchange ended on one.
    var pendingRedirect: URLRequest? {
        state.withLock { $0.redirect }
    }

    /// Records the 401 of a challenge Courier declined, to return it as the response.
    func declineChallenge(with response: URLResponse?) {
        state.withLock { $0.challengeResponse = response as? HTTPURLResponse }
    }

    /// Resumes the continuation with the outcome of the task, deletes what must not outlive it;
    /// later calls do nothing.
    func complete(with error: (any Error)?, response taskResponse: URLResponse?) {
        let (continuation, settled):
            (CheckedContinuation<TransportResponse, any Error>?, Result<TransportResponse, any Error>) =
                state.withLock { state in
                    defer { state.continuation = nil }
                    return (state.continuation, result(of: state, error: error, taskResponse: taskResponse))
                }
        guard let continuation else { return }
        state.withLock { $0.timer }?.cancel()
        var outcome = settled
        if case .success = outcome, let sink, !sink.flush() {
            outcome = .failure(TransferError.cannotWriteFile(sink.url))
        }
        sink?.close()
        switch outcome {
        case .failure: sink?.delete()
        case .success(let response) where response.fileURL == nil: sink?.delete()  // a declined challenge
        case .success: break
        }
        if let temporaryBody { try? FileManager.default.removeItem(at: temporaryBody) }
        continuation.resume(with: outcome)
    }

    private func result(
        of state: State, error: (any Error)?, taskResponse: URLResponse?
    ) -> Result<TransportResponse, any Error> {
        if state.writeFailed, let sink { return .failure(TransferError.cannotWriteFile(sink.url)) }
        if state.timedOut && !state.cancelRequested {
            return .failure(TransportFailure(kind: .timedOut, underlying: URLError(.timedOut)))
        }
        if let error {
            // A challenge Courier declined ends the task as cancelled; unless the caller cancelled,
            // the answer is the 401 that carried the challenge.
            if let challenged = state.challengeResponse, !state.cancelRequested {
                return .success(TransportResponse(response: challenged, data: Data()))
            }
            return .failure(error)
        }
        guard let response = state.response ?? taskResponse as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        return .success(TransportResponse(response: response, data: state.body, fileURL: sink?.url))
    }
}
