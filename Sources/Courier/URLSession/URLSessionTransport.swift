import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``Transport``: one long-lived `URLSession` driven by one session-level delegate.
///
/// Built on what works the same on Linux and Apple platforms: data tasks whose callbacks a single
/// session delegate routes by task (per-task delegates lose callbacks on Linux), the body buffered
/// once as it arrives, and cancellation of the Swift task cancelling the `URLSessionTask`.
/// Every status code is returned as a response.
///
/// A request that needs nothing per chunk (its body in memory or none, its response into memory,
/// no progress, not streamed, a redirect policy that follows every redirect) takes the
/// completion-handler route: the session delegate still
/// answers its redirects and challenges, but the body arrives whole in one callback instead of
/// one delegate call per chunk (on Linux each is a hop onto the delegate queue: a 1 MiB GET cost
/// 1.39× raw URLSession's CPU that way, 1.05× this way). On Linux such a task loses the 401 of a
/// challenge Courier declines (see below), so that one request is sent again on the delegate
/// route, and the origin's later requests take it directly. FoundationNetworking buffers such a
/// body itself, peaking at about twice its size (as `data(for:)` does); a large body belongs in a
/// download destination or a stream.
///
/// Authentication challenges get the system's default handling on Apple platforms (a stored
/// credential if there is one, otherwise the 401 and its body). On Linux, where that default
/// waits forever for a credential, a 401 carrying a `WWW-Authenticate` challenge is returned as
/// the response, with its body. Either way, put credentials in headers with an adapter or a
/// plugin rather than in credential storage.
///
/// On Linux, a file body up to ``linuxKnownLengthUploadLimit`` is sent from memory with its
/// `Content-Length`; a larger one is streamed chunked (see that property).
///
/// The session is invalidated when the transport is released; in-flight requests keep the
/// transport alive, so it is never used after invalidation.
public final class URLSessionTransport: Transport {
    /// The session that sends the requests (those that turn cookies off go through a copy of it
    /// without cookie handling).
    public var session: URLSession { lane.session }
    private let lane: SessionLane
    /// The session for requests with `httpShouldHandleCookies = false`, made when first needed.
    private let cookieless: Locked<SessionLane?> = Locked(nil)
    private let configuration: URLSessionConfiguration
    /// Origins that answered with an HTTP challenge: their requests take the delegate route.
    private let challengingOrigins = OriginSet()
    /// The one timer behind every request's timeout (see ``DeadlineTimers``).
    private let timers = DeadlineTimers()

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; ``defaultConfiguration`` by default.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration) {
        self.configuration = configuration
        self.lane = SessionLane(configuration: configuration)
        self.sessionHeaders = Dictionary(
            (configuration.httpAdditionalHeaders ?? [:]).map { ("\($0.key)", "\($0.value)") },
            uniquingKeysWith: { first, _ in first })
    }

    /// The configuration's `httpAdditionalHeaders` (``defaultHeaders`` by default): the session
    /// adds them to every request. `Accept-Encoding` is the platform's, not listed here.
    public let sessionHeaders: [String: String]

    deinit {
        lane.session.finishTasksAndInvalidate()
        cookieless.value?.session.finishTasksAndInvalidate()
    }

    /// How many requests this transport is sending right now.
    public var activeRequestCount: Int {
        lane.router.activeTaskCount + (cookieless.value?.router.activeTaskCount ?? 0)
    }

    /// The lane for `request`: the cookieless one when it turns cookies off, so that cookies off
    /// means off on every platform.
    private func lane(for request: TransportRequest) -> SessionLane {
        guard !request.engineHandlesCookies else { return lane }
        return cookieless.withLock { lane in
            if let lane { return lane }
            let made = SessionLane(configuration: SessionLane.cookieless(configuration))
            lane = made
            return made
        }
    }

    /// Everything but ``TransportCapabilities/repeatedHeaderFields`` (a `URLRequest` holds one
    /// value per name): URLSession honours every other request option, and Courier's own timer
    /// enforces the timeout.
    public var capabilities: TransportCapabilities { TransportCapabilities.all.subtracting(.repeatedHeaderFields) }

    /// Sends `request` (one hop: a redirect is returned, never followed) and returns its
    /// response: with the whole body, the file holding it, or, for a streamed request, at its
    /// head with the body following as it arrives.
    ///
    /// A request body from a file or an encoded multipart form goes through an upload task,
    /// streamed from disk (on Linux, from memory up to ``linuxKnownLengthUploadLimit``); a
    /// multipart body above its memory threshold is written to a temporary file first, deleted
    /// when the task ends. A download is written, as it arrives, to a
    /// temporary file Courier creates and deletes on failure.
    ///
    /// A streamed body: URLSession on Linux has no backpressure (suspending a task and resuming it
    /// restarts the transfer: a 64 MiB body arrived as 77 MB), so the transfer runs at the
    /// network's pace and the ``TransportBody`` keeps a slow reader's backlog in a temporary file
    /// beyond its memory limit, up to ``TransportRequest/streamingLimits``' backlog (past it the
    /// transfer is cancelled and the reader gets ``StreamingError/Code/backlogTooLarge`` after
    /// what was kept). Stopping the iteration cancels the transfer.
    /// - Parameter request: What to send.
    /// - Returns: The response and body, whatever the status code.
    /// - Throws: The `URLError` of a failed transfer (`URLError(.cancelled)` when the Swift task
    ///   is cancelled), or a ``TransferError``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        request.delivery == .stream ? try await streamOnce(request) : try await sendOnce(request)
    }

    /// One streamed hop, sent again once, if it is idempotent, when a kept-alive connection closed
    /// under it before its head.
    private func streamOnce(_ request: TransportRequest) async throws -> TransportResponse {
        var resends = 0
        while true {
            let (body, writer) = TransportBody.makeStream(limits: request.streamingLimits)
            do {
                let head = try await exchange(request, streamingTo: writer)
                return TransportResponse(
                    statusCode: head.statusCode, source: head.source, headerFields: head.receivedFields, stream: body)
            } catch is ResendNeeded {
                try Self.allowResend(request, after: &resends)
            }
        }
    }

    /// One hop: the request, sent again once, if it is idempotent, when a kept-alive connection
    /// closed under it, or on the delegate route when the completion-handler route lost a declined
    /// challenge's 401.
    private func sendOnce(_ request: TransportRequest) async throws -> TransportResponse {
        var resends = 0
        var viaDelegate = false
        while true {
            do {
                var response = try await exchange(request, viaDelegate: viaDelegate)
                response.resends = resends
                return response
            } catch is ChallengeAnswerLost {
                // Asked again on the delegate route, which keeps the 401 and its body.
                challengingOrigins.insert(request.urlRequest.url)
                viaDelegate = true
            } catch is ResendNeeded {
                // The server closed a kept-alive connection before answering; URLSession would
                // resend on a new connection but cannot rewind the body (see `Exchange.cannotRewind`).
                try Self.allowResend(request, after: &resends)
            }
        }
    }

    /// Counts a resend after a connection closed unanswered, or fails with `connectionLost` when
    /// the request may not be sent twice (it is not idempotent: the server may have acted on it)
    /// or was resent once already.
    private static func allowResend(_ request: TransportRequest, after resends: inout Int) throws {
        resends += 1
        guard request.isIdempotent, resends <= maximumResends else {
            throw TransportFailure(kind: .connectionLost, underlyingError: URLError(.networkConnectionLost))
        }
    }

    /// The longest timeout given to URLSession: about 115 days. On Linux an infinite or huge value
    /// reaches libcurl unchecked and stops the process.
    public static let maximumEngineTimeout: TimeInterval = 10_000_000

    /// `seconds` as URLSession can take it: whole seconds (on Linux it truncates fractions, so 0.5 s
    /// would time out at once; Courier enforces the exact limit itself), at least 1, and at most
    /// ``maximumEngineTimeout`` (also for infinity and NaN).
    /// - Parameter seconds: A request's `timeoutInterval`.
    /// - Returns: The value URLSession gets.
    public static func engineTimeout(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite, seconds < maximumEngineTimeout else { return maximumEngineTimeout }
        return max(1, seconds.rounded(.up))
    }

    /// On Linux, the largest file body (an upload from a file, or a multipart form encoded to one)
    /// sent with a `Content-Length`: 32 MiB. Such a body is read into memory first, because
    /// URLSession on Linux sends a streamed body chunked, without a length, which some servers
    /// refuse (presigned S3 `PUT`s answer 501, some gateways 411). A larger body is streamed
    /// chunked. Apple platforms stream every file with its `Content-Length`.
    public static let linuxKnownLengthUploadLimit: UInt64 = 32 << 20

    /// The longest an asynchronous request body may give nothing while it is read before sending
    /// (or the request's timeout, when shorter): 10 s. URLSession sends such a body once it has it
    /// whole, so a body that waits for the answer (full duplex) fails with
    /// ``TransferError/streamStalled(part:seconds:)`` rather than hang.
    public static let asynchronousBodyStallLimit: TimeInterval = 10

    /// The most times an idempotent request is sent again because a kept-alive connection closed
    /// under it.
    private static let maximumResends = 1

    /// One task: the response, a redirect included (URLSession is never left to follow one).
    private func exchange(
        _ request: TransportRequest, streamingTo writer: TransportBody.Writer? = nil, viaDelegate: Bool = false
    ) async throws -> TransportResponse {
        let sink = request.delivery == .file && writer == nil ? try DownloadFile() : nil
        let upload: UploadBody
        do {
            upload = try await UploadBody.prepared(
                request.body, stallLimit: min(Self.asynchronousBodyStallLimit, request.timeout ?? .infinity))
        } catch {
            sink?.delete()
            throw error
        }
        // The completion-handler route (see the type's documentation) when nothing happens per chunk.
        // A redirect that is not followed is the answer, body included; on Linux a task ended in a
        // completion handler loses that body, so such a policy takes the delegate route.
        let endsInHandler =
            writer == nil && sink == nil && request.progress == nil && upload.isInMemory && !viaDelegate
            && !request.keepsRedirectBodies && !challengingOrigins.contains(request.urlRequest.url)
        let exchange = Exchange(
            progress: request.progress, sink: sink, temporaryBody: upload.temporaryFile,
            streamedBody: upload.streamed, bodyWriter: writer, endsInHandler: endsInHandler)
        // A reader that stops reading the body ends the transfer.
        writer?.onTermination = { exchange.cancel() }
        var urlRequest = request.urlRequest
        let lane = lane(for: request)
        // Set only when it changes: a write copies the request on Linux, method normalisation
        // (string comparisons) included, about 5,000 instructions.
        let engineTimeout = Self.engineTimeout(urlRequest.timeoutInterval)
        if engineTimeout != urlRequest.timeoutInterval { urlRequest.timeoutInterval = engineTimeout }
        let response = try await withTaskCancellationHandler {
            // Checked, not unsafe: ThreadSanitizer reports the runtime's hand-over of an unsafe
            // continuation's result as a data race (the runtime is not instrumented), so CI's
            // sanitizer run needs the checked one, whose own synchronization it sees.
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation)
                if let timeout = request.timeout { exchange.expire(after: timeout, on: timers) }
                let task: URLSessionTask
                if endsInHandler {
                    task = upload.task(for: urlRequest, in: lane.session) {
                        [router = lane.router] data, response, error in
                        router.unregister(exchange)
                        exchange.complete(data: data, response: response, error: error)
                    }
                } else {
                    task = upload.task(for: urlRequest, in: lane.session)
                }
                lane.router.register(exchange, for: task)
                task.resume()
                exchange.attach(task)
            }
        } onCancel: {
            exchange.cancel()
        }
        return response
    }
}
