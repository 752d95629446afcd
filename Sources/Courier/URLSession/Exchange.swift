import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request and its response as they pass through ``URLSessionTransport``: the body, buffered
/// once in memory, written to a file Courier owns, or handed to a ``TransportBody`` as it arrives
/// (then the continuation is resumed with the head), the progress counts, the continuation that
/// is resumed exactly once (taken out of the locked state by whoever resumes it), and the task to
/// cancel.
final class Exchange: Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var cancelRequested = false
        var response: HTTPURLResponse?
        var challengeResponse: HTTPURLResponse?
        var challengeDeclined = false
        var body = Data()
        var receivedBytes: Int64 = 0
        var expectedBytes: Int64?
        var writeFailed = false
        var timedOut = false
        var timer: Timer?
        /// Set when URLSession reported the task complete; it must not be cancelled after that.
        var finished = false
        /// Set when the task was cancelled because its body could not be rewound (``cannotRewind()``).
        var mustResend = false
        /// Set when the caller's wait ended early (cancelled, timed out): nothing reaches it after.
        var abandoned = false
        /// The task's identifier in its session, once it has one.
        var taskIdentifier: Int?
    }

    /// The timeout: a limit of the transport's timer.
    private struct Timer: Sendable {
        let timers: DeadlineTimers
        let token: DeadlineTimers.Token

        func cancel() { timers.cancel(token) }
    }

    /// The largest body size reserved up front from a `Content-Length`; larger bodies grow as
    /// they arrive, so a lying header cannot make Courier allocate gigabytes at once.
    private static let maximumReservation = 16 << 20

    private let state = Locked(State())
    /// The task itself: cancelled, answered and finished under its own lock (see ``TaskControl``).
    private let control = TaskControl()
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// The file a download is written to, when the request writes to a file.
    private let sink: DownloadFile?
    /// A temporary file (an encoded multipart body) to delete when the task ends.
    private let temporaryBody: URL?
    /// Where a body URLSession reads as a stream comes from, and its size (URLSession does not
    /// know it).
    private let streamedBody: StreamedBody?
    /// Where the body goes as it arrives, for a streamed response.
    private let bodyWriter: TransportBody.Writer?
    /// Whether the task ends in a completion handler (``complete(data:response:error:)``) rather
    /// than in the session delegate.
    private let endsInHandler: Bool

    init(
        progress: (@Sendable (TransferProgress) -> Void)?, sink: DownloadFile?, temporaryBody: URL?,
        streamedBody: StreamedBody?, bodyWriter: TransportBody.Writer? = nil, endsInHandler: Bool = false
    ) {
        self.endsInHandler = endsInHandler
        self.progress = progress
        self.sink = sink
        self.temporaryBody = temporaryBody
        self.streamedBody = streamedBody
        self.bodyWriter = bodyWriter
    }

    /// A fresh stream of the body, for each time URLSession asks for one; `nil` when the body is
    /// not streamed. A stream that cannot be made (a stream body that cannot be read again, a
    /// file gone) ends the exchange with that error at once: URLSession would wait for a body.
    func makeBodyStream() -> InputStream? {
        guard let streamedBody else { return nil }
        do {
            return try streamedBody.make()
        } catch {
            settleEarly(throwing: error) { _ in }
            return nil
        }
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
        DispatchQueue.global().async { [control] in control.stop() }
    }

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        let cancelled = state.withLock { state in
            guard !state.cancelRequested else { return true }
            state.continuation = continuation
            return false
        }
        if cancelled {
            discardFiles()
            continuation.resume(throwing: URLError(.cancelled))
        }
    }

    /// Deletes the download file and the temporary body now: the caller's wait ends before
    /// URLSession reports the task complete, and nothing may outlive the caller's completion.
    private func discardFiles() {
        sink?.delete()
        if let temporaryBody { try? FileManager.default.removeItem(at: temporaryBody) }
    }

    /// Remembers the running task; cancels it at once if cancellation came first.
    func attach(_ task: URLSessionTask) {
        control.attach(task)
    }

    /// Cancels the task and ends the caller's wait at once, with `URLError(.cancelled)`: on a
    /// busy session URLSession reports the cancellation tens of milliseconds later (its work queue
    /// and the delegate queue deliver every other task's data first). What the task leaves behind
    /// is cleaned up when URLSession reports it complete; its download file is deleted now.
    func cancel() {
        settleEarly(throwing: URLError(.cancelled)) { $0.cancelRequested = true }
    }

    /// Marks the state with `mark` and resumes the caller with `error`, unless URLSession reported
    /// the task complete first; then cancels the task from another queue, since on Linux
    /// `URLSessionTask.cancel()` waits for URLSession's work queue (up to ~100 ms on a busy session).
    private func settleEarly(throwing error: any Error, mark: (inout State) -> Void) {
        let (continuation, timer) = state.withLock { state in
            mark(&state)
            state.abandoned = true
            return (state.continuation.take(), state.timer.take())
        }
        timer?.cancel()
        bodyWriter?.fail(error)
        if let continuation {
            discardFiles()
            continuation.resume(throwing: error)
        }
        DispatchQueue.global().async { [control] in control.stop() }
    }

    /// Fails the exchange with a timeout `seconds` from now, unless it ends first.
    ///
    /// A limit of the transport's one timer (``DeadlineTimers``): no timer source is made,
    /// resumed and cancelled per request (each wakes libdispatch's manager thread), and a
    /// cancelled limit is forgotten at once (`asyncAfter` kept a cancelled work item queued until
    /// its deadline: a service with 60 s timeouts would have held every finished request's timer
    /// for a minute).
    func expire(after seconds: TimeInterval, on timers: DeadlineTimers) {
        let token = timers.schedule(after: seconds) { [weak self] in self?.expire() }
        let finished = state.withLock { state in
            state.timer = Timer(timers: timers, token: token)
            return state.finished
        }
        if finished { timers.cancel(token) }
    }

    private func expire() {
        settleEarly(throwing: TransportFailure(kind: .timedOut, underlyingError: URLError(.timedOut))) { state in
            if !state.finished && !state.cancelRequested { state.timedOut = true }
        }
    }

    /// The identifier of the exchange's task in its session, recorded before the task starts.
    var taskIdentifier: Int? {
        get { state.withLock { $0.taskIdentifier } }
        set { state.withLock { $0.taskIdentifier = newValue } }
    }

    /// The body's length as the head announces it: `nil` when unknown, or when the body arrives
    /// decompressed (then its `Content-Length` is not the total).
    private static func expectedLength(of response: URLResponse, _ http: HTTPURLResponse?) -> Int64? {
        let length = response.expectedContentLength
        return length > 0 && http?.value(forHTTPHeaderField: "Content-Encoding") == nil ? length : nil
    }

    /// Records the response and lets the transfer go on, unless the exchange is already cancelled.
    func receive(_ response: URLResponse, disposition: @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        // Interim 1xx responses (100 Continue) are not the answer; wait for the final one.
        let final = http.map { $0.statusCode >= 200 || $0.statusCode == 101 } ?? false
        let expected = Self.expectedLength(of: response, http)
        var head: CheckedContinuation<TransportResponse, any Error>?
        let proceed = state.withLock { state in
            guard !state.cancelRequested && !state.timedOut && !state.mustResend else { return false }
            // A streamed response is handed over at its head; its body follows through the writer.
            if final, bodyWriter != nil, http != nil { head = state.continuation.take() }
            if final {
                state.response = http
                state.body = Data()
                state.receivedBytes = 0
                state.expectedBytes = expected
                if sink == nil, let expected {
                    state.body.reserveCapacity(Int(min(expected, Int64(Self.maximumReservation))))
                }
            }
            return true
        }
        if proceed { control.answer { disposition(.allow) } }
        if let head, let http { head.resume(returning: TransportResponse(response: http, data: Data())) }
    }

    /// Declines a redirect, so that the 3xx is the task's answer, while no cancellation can slip
    /// in between (see ``TaskControl``). Once the task is cancelled (by the caller or the
    /// timeout) the redirect is not answered at all: the cancellation already ended URLSession's
    /// wait, and an answer after it stops the process on Linux ("Received callback for HTTP
    /// redirection, but we're not waiting for it").
    func answerRedirect(completionHandler: @Sendable (URLRequest?) -> Void) {
        let proceed = state.withLock { state in !state.cancelRequested && !state.timedOut && !state.mustResend }
        if proceed { control.answer { completionHandler(nil) } }
    }

    func receive(_ data: Data) {
        let written = sink.map { $0.write(data) } ?? true
        let report: (Int64, Int64?)? = state.withLock { state in
            // Nothing reaches a caller whose wait has ended.
            guard !state.abandoned else { return nil }
            if sink == nil && bodyWriter == nil { state.body.append(data) }
            if !written { state.writeFailed = true }
            state.receivedBytes += Int64(data.count)
            return (state.receivedBytes, state.expectedBytes)
        }
        if !written { control.stop() }
        guard let (received, expected) = report else { return }
        bodyWriter?.write(data)
        progress?(TransferProgress(direction: .download, completedBytes: received, expectedBytes: expected))
    }

    /// Reports the bytes sent so far. URLSession does not know the size of a streamed body (it
    /// reports -1); Courier measured the file, so the total is known on every path.
    func sent(_ bytes: Int64, of expected: Int64) {
        let total = expected > 0 ? expected : streamedBody?.size
        guard state.withLock({ !$0.abandoned }) else { return }
        progress?(TransferProgress(direction: .upload, completedBytes: bytes, expectedBytes: total))
    }

    /// Records a challenge Courier declined (Linux only, see `SessionDelegate`) and its 401, to
    /// return as the response: the task then ends as cancelled, though nobody cancelled it.
    func declineChallenge(with response: URLResponse?) {
        state.withLock { state in
            state.challengeDeclined = true
            state.challengeResponse = response as? HTTPURLResponse
        }
    }

    /// The end of a task URLSession ran with a completion handler (see
    /// ``URLSessionTransport``'s completion route): records the response and body as
    /// ``receive(_:disposition:)`` and ``receive(_:)`` would have, then completes as
    /// ``complete(with:response:)`` does.
    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        if let response, let http = response as? HTTPURLResponse {
            // Only a failed task needs the announced length (to tell a body cut short); looking
            // up `Content-Encoding` lowercases every field name on Linux, about 3,000
            // instructions per request.
            let expected = error == nil ? nil : Self.expectedLength(of: response, http)
            state.withLock { state in
                guard !state.abandoned && !state.mustResend else { return }
                state.response = http
                state.body = data ?? Data()
                state.receivedBytes = Int64(state.body.count)
                state.expectedBytes = expected
            }
        }
        complete(with: error, response: response)
    }

    /// Resumes the continuation with the outcome of the task, deletes what must not outlive it;
    /// later calls do nothing.
    func complete(with error: (any Error)?, response taskResponse: URLResponse?) {
        control.finish()
        let (continuation, settled):
            (CheckedContinuation<TransportResponse, any Error>?, Result<TransportResponse, any Error>) =
                state.withLock { state in
                    defer { state.continuation = nil }
                    state.finished = true
                    return (state.continuation, result(of: state, error: error, taskResponse: taskResponse))
                }
        state.withLock { $0.timer.take() }?.cancel()
        if let bodyWriter {
            switch settled {
            case .success: bodyWriter.finish()
            case .failure(let error): bodyWriter.fail(error)
            }
        }
        guard let continuation else {
            // The caller's wait ended early (cancelled or timed out): only clean up.
            discardFiles()
            return
        }
        var outcome = settled
        if case .success = outcome, let sink, !sink.flush() {
            outcome = .failure(TransferError.cannotWriteFile(sink.url))
        }
        sink?.close()
        switch outcome {
        case .failure: sink?.delete()
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
            return .failure(TransportFailure(kind: .timedOut, underlyingError: URLError(.timedOut)))
        }
        if state.mustResend && !state.cancelRequested { return .failure(ResendNeeded()) }
        if let error {
            // A challenge Courier declined (on Linux, see `SessionDelegate`) ends the task as
            // cancelled; unless the caller cancelled, the answer is the 401 that carried the
            // challenge, with the body URLSession delivered before it.
            if state.challengeDeclined && !state.cancelRequested {
                // A task ended by a completion handler gets neither the 401 nor its body once its
                // challenge is declined (FoundationNetworking): the transport asks again on the
                // delegate route, which receives both.
                if endsInHandler { return .failure(ChallengeAnswerLost()) }
                guard let challenged = state.challengeResponse else {
                    // A challenge without a 401 to return is a failure, never a cancellation.
                    return .failure(
                        TransportFailure(kind: .other, underlyingError: URLError(.userAuthenticationRequired)))
                }
                return .success(TransportResponse(response: challenged, data: state.body, fileURL: sink?.url))
            }
            let nsError = error as NSError
            guard nsError.domain == NSURLErrorDomain, nsError.code != URLError.cancelled.rawValue else {
                return .failure(error)
            }
            // A body shorter than its head announced is a lost connection, whatever the code says.
            let cutShort = state.response != nil && state.expectedBytes.map { state.receivedBytes < $0 } == true
            return .failure(TransportFailure(error, bodyCutShort: cutShort))
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

/// A task ended by a completion handler met an HTTP challenge, which Courier declines on Linux,
/// and lost the 401 that carried it: the transport sends the request again on the delegate route.
struct ChallengeAnswerLost: Error {}
