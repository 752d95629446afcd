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
        /// Set when URLSession reported the task complete; it must not be cancelled after that.
        var finished = false
        /// Set when the task was cancelled because its body could not be rewound (``cannotRewind()``).
        var mustResend = false
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
    /// The file a streamed upload reads, and its size (URLSession does not know it).
    private let streamedBody: (url: URL, size: Int64)?

    init(
        progress: (@Sendable (TransferProgress) -> Void)?, sink: DownloadFile?, temporaryBody: URL?,
        streamedBody: (url: URL, size: Int64)?
    ) {
        self.progress = progress
        self.sink = sink
        self.temporaryBody = temporaryBody
        self.streamedBody = streamedBody
    }

    /// A fresh stream of the upload's file, for each time URLSession asks for one; `nil` when the
    /// body is not streamed.
    func makeBodyStream() -> InputStream? {
        streamedBody.flatMap { InputStream(url: $0.url) }
    }

    /// URLSession asked to rewind a body that is not streamed. On Linux that happens when a server
    /// closed a kept-alive connection before answering: URLSession then resends the request on a
    /// new connection, but it cannot rewind a body sent from memory (a stream is a `fatalError`
    /// there, no stream stalls the task until its timeout). The task is cancelled instead, and the
    /// transport sends the request again itself, as URLSession meant to.
    ///
    /// URLSession asks on its own work queue, which a cancellation waits for: the exchange is
    /// marked at once (so whatever ends the task, the transport resends), and the task is cancelled
    /// from another queue.
    func cannotRewind() {
        let marked = state.withLock { state in
            guard !state.cancelRequested && !state.timedOut else { return false }
            state.mustResend = true
            return true
        }
        guard marked else { return }
        DispatchQueue.global().async { [self] in state.withLock { Self.cancelTask(in: &$0) } }
    }

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Remembers the running task; cancels it at once if cancellation came first.
    func attach(_ task: URLSessionTask) {
        state.withLock { state in
            state.task = task
            if state.cancelRequested || state.timedOut { Self.cancelTask(in: &state) }
        }
    }

    // Cancelling a URLSessionTask on Linux has two ways to stop the process, and the lock closes
    // both. (1) `cancel()` finishes its work later on URLSession's work queue; if the task completed
    // meanwhile and left the session's registry, that work hits a `fatalError` ("a task that is
    // not in the registry", swift-corelibs-foundation SR-11310). URLSession reports completion to
    // this delegate *before* it schedules the removal, so a task is cancelled only under the lock
    // and only while `complete` has not run: the cancellation's work is then queued before the
    // removal. (2) Answering a response disposition or a redirect resumes a paused transfer, and
    // resuming a handle that a cancellation removed stops the process (libcurl error 43, see
    // `UploadBody`): those answers are given under the lock too, and not at all once cancelled.

    func cancel() {
        state.withLock { state in
            state.cancelRequested = true
            Self.cancelTask(in: &state)
        }
    }

    /// Cancels the task unless URLSession already reported it complete. Call with the lock held.
    private static func cancelTask(in state: inout State) {
        guard !state.finished else { return }
        state.task?.cancel()
    }

    /// Fails the exchange with a timeout `seconds` from now, unless it ends first.
    func expire(after seconds: TimeInterval) {
        let timer = DispatchWorkItem { [weak self] in self?.expire() }
        state.withLock { $0.timer = timer }
        let clamped = seconds > 0 ? min(seconds, Delay.maximumSeconds) : 0
        DispatchQueue.global().asyncAfter(deadline: .now() + clamped, execute: timer)
    }

    private func expire() {
        state.withLock { state in
            state.timedOut = true
            Self.cancelTask(in: &state)
        }
    }

    /// Records the response and lets the transfer go on, unless the exchange is already cancelled.
    func receive(_ response: URLResponse, disposition: @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        // Interim 1xx responses (100 Continue) are not the answer; wait for the final one.
        let final = http.map { $0.statusCode >= 200 || $0.statusCode == 101 } ?? false
        let length = response.expectedContentLength
        // A compressed body arrives decompressed, so its Content-Length is not the total.
        let expected = length > 0 && http?.value(forHTTPHeaderField: "Content-Encoding") == nil ? length : nil
        state.withLock { state in
            guard !state.cancelRequested && !state.timedOut && !state.mustResend else { return }
            if final {
                state.response = http
                state.body = Data()
                state.receivedBytes = 0
                state.expectedBytes = expected
                if sink == nil, let expected {
                    state.body.reserveCapacity(Int(min(expected, Int64(Self.maximumReservation))))
                }
            }
            disposition(.allow)
        }
    }

    /// Answers a redirect with `next` while no cancellation can slip in between (see `cancel`),
    /// and records `ownRedirect`, a 307/308 the transport follows itself. Once the task is
    /// cancelled (by the caller or the timeout) the redirect is not answered at all: the
    /// cancellation already ended URLSession's wait, and an answer after it stops the process on
    /// Linux ("Received callback for HTTP redirection, but we're not waiting for it").
    func answerRedirect(
        _ next: URLRequest?, ownRedirect: URLRequest? = nil, completionHandler: @Sendable (URLRequest?) -> Void
    ) {
        state.withLock { state in
            guard !state.cancelRequested && !state.timedOut && !state.mustResend else { return }
            if let ownRedirect { state.redirect = ownRedirect }
            completionHandler(next)
        }
    }

    func receive(_ data: Data) {
        let written = sink.map { $0.write(data) } ?? true
        let (received, expected) = state.withLock { state in
            if sink == nil { state.body.append(data) }
            if !written {
                state.writeFailed = true
                Self.cancelTask(in: &state)
            }
            state.receivedBytes += Int64(data.count)
            return (state.receivedBytes, state.expectedBytes)
        }
        progress?(TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected))
    }

    /// Reports the bytes sent so far. URLSession does not know the size of a streamed body (it
    /// reports -1); Courier measured the file, so the total is known on every path.
    func sent(_ bytes: Int64, of expected: Int64) {
        let total = expected > 0 ? expected : streamedBody?.size
        progress?(TransferProgress(direction: .upload, completedBytes: bytes, expectedBytes: total))
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
                    state.finished = true
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
        if state.mustResend && !state.cancelRequested { return .failure(ResendNeeded()) }
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

/// The exchange ended because its body could not be rewound for a resend (see
/// ``Exchange/cannotRewind()``): the transport sends the request again.
struct ResendNeeded: Error {}
