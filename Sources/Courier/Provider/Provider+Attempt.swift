import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed attempt: its error and the request as far as it got.
struct AttemptFailure: Error {
    let error: CourierError
    let request: URLRequest
}

/// What every attempt of one request shares.
///
/// Not generic over the provider's target type on purpose: the provider's generic code runs
/// unspecialized in a caller's module, where every use of a generic `AttemptSetup<Target>` asked
/// the runtime for its metadata (7 lookups, about 2,300 instructions per stubbed request, measured
/// with callgrind). The target is boxed once, as the hooks take it.
struct AttemptSetup: Sendable {
    let requestID: RequestID
    let target: any TargetType
    /// The target's validation, read once for all attempts.
    let validationType: ValidationType
    /// The request the provider built; every attempt starts again from it.
    let base: URLRequest
    /// The provider's engine, or the stub engine of a stubbed target.
    let engine: any Transport
    /// Whether ``engine`` is a stub engine.
    let stubbed: Bool
    /// Where the request body comes from.
    let body: TransportRequest.Body
    /// Where a download goes, for a download task.
    let destination: DownloadDestination?
    /// For a resumable download, its destination.
    let resumingInto: URL?
    /// For a resumable upload, its file and state.
    let uploading: ResumableUploadSource?
    /// A resumable transfer's stage (``ResumeStage``, ``UploadResumeStage``), on top of the
    /// attempt's chain, or `nil`.
    let transfer: (any Stage)?
    /// Receives the transfer's progress, when the caller asked for it.
    let progress: (any ProgressSink)?
    /// The attempt's and the whole request's time limits.
    let timeouts: Timeouts
    /// Whether the target's request may be sent twice, read once for all attempts.
    let idempotency: Idempotency
    /// The fields whose name the target repeats, for a transport that sends them apart.
    let repeatedHeaderFields: HeaderFields
    /// For a streamed request: where the accepted attempt's body goes.
    let streaming: StreamHandoff?
    /// For a WebSocket's opening handshake: where the engine hands the connection.
    let socket: WebSocketUpgrade?
    /// The provider's cookie jar, when it has one.
    let cookieJar: CookieJar?
    /// The provider, for a refresh that sends through it.
    let sender: any RequestSending
    /// What the interceptor remembers about the request across its attempts; made only for a
    /// provider with an interceptor (a storage is three allocations and a lock, per request).
    let storage: RequestStorage?
    /// The resilience state of the request's scope, when a policy applies.
    let scope: ScopeState?
    /// The request's trust policy: the target's, else the provider's.
    let trust: TrustBox?
    /// For an outbox's try: the most bytes of the answer's body read (the engine streams it; the
    /// rest is dropped, ending the transfer). Not applied to a resumable transfer.
    var answerLimit: AnswerLimit? = nil

    /// The interceptor's context for attempt `number`.
    func context(attempt number: Int, response: Response? = nil) -> RequestContext {
        var context = RequestContext(
            target: target, attempt: number, response: response, requestID: requestID,
            storage: storage ?? RequestStorage(), sender: sender, clock: timeouts.clock,
            timeouts: timeouts.deadline == nil ? nil : timeouts)
        context.resumesTransfer = resumingInto != nil || uploading?.resumable.value == true
        return context
    }
}

extension Provider {
    /// One attempt, with its duration, status and sizes.
    @inline(__always)
    func measuredAttempt(
        _ number: Int, _ setup: AttemptSetup
    ) async -> (Result<Response, AttemptFailure>, AttemptMetrics) {
        let stopwatch = Stopwatch()
        let notes = setup.scope == nil ? nil : ResilienceNotes(deposits: number == 1)
        let outcome = await attempt(number, setup, notes)
        let (response, sent, failure): (Response?, URLRequest?, CourierError.Stage?) =
            switch outcome {
            case .success(let response): (response, response.request, nil)
            case .failure(let failed):
                // A request that failed in `prepare` or `adapt` never reached the transport.
                (
                    failed.error.response, [.preparing, .adapting].contains(failed.error.stage) ? nil : failed.request,
                    failed.error.stage
                )
            }
        let metrics = AttemptMetrics(
            number: number, startDate: stopwatch.startDate, duration: stopwatch.elapsed,
            statusCode: response?.statusCode, bytesSent: sent.map { Int(setup.body.size(inline: $0)) } ?? 0,
            bytesReceived: response?.data.count ?? 0, failure: failure,
            transportResends: response?.transportResends ?? 0, protocolVersion: response?.protocolVersion,
            cacheRecord: response?.cacheRecord, resilience: notes?.record)
        return (outcome, metrics)
    }

    /// One attempt: prepare → willSend → adapt → willTransmit → transport → validation.
    @inline(__always)
    private func attempt(
        _ attempt: Int, _ setup: AttemptSetup, _ notes: ResilienceNotes?
    ) async -> Result<Response, AttemptFailure> {
        let target = setup.target
        var request: URLRequest
        switch await prepared(setup.base, target: target) {
        case .success(let prepared): request = prepared
        case .failure(let failure): return .failure(failure)
        }

        let session = plugins.isEmpty || setup.stubbed ? [:] : transport.sessionHeaders
        let prepared = PreparedRequest(
            request: request, attempt: attempt, requestID: setup.requestID, sessionHeaders: session, body: setup.body)
        // By index, as in Provider+Pipeline: iterating copies each plugin out of the array.
        for index in plugins.indices {
            plugins[index].willSend(prepared, target: target)
        }

        switch await adapt(request, attempt: attempt, setup: setup) {
        case .success(let adapted): request = adapted
        case .failure(let failure): return .failure(failure)
        }
        let context = exchangeContext(request, setup, notes)
        // The jar's cookies are part of the request as sent, so the observation shows them.
        request = context.outgoing(request)
        if !plugins.isEmpty {
            let transmitted = PreparedRequest(
                request: request, attempt: attempt, requestID: setup.requestID, sessionHeaders: session,
                body: setup.body)
            for index in plugins.indices {
                plugins[index].willTransmit(transmitted, target: target)
            }
        }

        let received: TransportResponse
        switch await transmit(request, attempt, setup, context) {
        case .success(let response): received = response
        case .failure(let error):
            return .failure(
                AttemptFailure(error: Self.failure(error) { .exchange($0, request: request) }, request: request))
        }
        if received.fileURL != nil || setup.destination != nil {
            return await settleDownload(received, request: request, setup: setup)
        }
        return settle(received, request: request, setup: setup)
    }

    /// ``settle(_:request:setup:)`` for a download, off the caller's actor: `@concurrent`, because
    /// placing a download is blocking file I/O that grows with the file (a body in memory written
    /// out, a copy across file systems, an error body read back), which must not run on an app's
    /// main actor when it awaits the request there.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    private func settleDownload(
        _ received: TransportResponse, request: URLRequest, setup: AttemptSetup
    ) async -> Result<Response, AttemptFailure> {
        settle(received, request: request, setup: setup)
    }

    /// Each transforming plugin's `prepare`, in order; a cancelled task stops here.
    @inline(__always)
    private func prepared(_ base: URLRequest, target: any TargetType) async -> Result<URLRequest, AttemptFailure> {
        var request = base
        do {
            for index in transformingPlugins.indices {
                request = try await transformingPlugins[index].prepare(request, target: target)
            }
        } catch {
            return .failure(
                AttemptFailure(error: Self.failure(error) { .preparation($0, request: request) }, request: request))
        }
        if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled, request: request)) }
        return .success(request)
    }

    /// What the stages of the attempt of `request` share: the engine, the limits where a stage
    /// or a clock needs them (copying them costs), the jar's state when the request handles
    /// cookies, the scope, the trust policy.
    @inline(__always)
    private func exchangeContext(
        _ request: URLRequest, _ setup: AttemptSetup, _ notes: ResilienceNotes?
    ) -> ExchangeContext {
        ExchangeContext(
            engine: setup.engine, timeouts: notes != nil || hasOwnClock ? setup.timeouts : nil,
            cookies: HopCookies.forAttempt(setup.cookieJar, request), scope: setup.scope, notes: notes,
            timers: timers, trust: setup.trust)
    }

    /// The request as sent, through the provider's chain of stages for this attempt: whole, or
    /// streamed into the attempt's handoff.
    @inline(__always)
    private func transmit(
        _ request: URLRequest, _ attempt: Int, _ setup: AttemptSetup, _ context: ExchangeContext
    ) async -> Result<TransportResponse, any Error> {
        var report: (@Sendable (TransferProgress) -> Void)?
        if let reporter = setup.progress { report = { reporter.report($0) } }
        var sent = request
        let body = setup.body.carried(by: &sent)
        var transportRequest = TransportRequest(
            urlRequest: sent, body: body, delivery: setup.destination == nil ? .memory : .file,
            progress: report, timeout: setup.timeouts.forExchange)
        if setup.idempotency != .byMethod { transportRequest.isIdempotent = setup.idempotency.allowsResending(request) }
        if !setup.repeatedHeaderFields.isEmpty { transportRequest.repeatedHeaderFields = setup.repeatedHeaderFields }
        if let socket = setup.socket { transportRequest.webSocket = socket }
        if setup.engine.capabilities.contains(.requestOrigin) {
            transportRequest.origin = RequestOrigin(target: setup.target, requestID: setup.requestID, attempt: attempt)
        }
        let chain = chain.chain(
            stubbed: setup.stubbed, policy: setup.scope != nil, gated: setup.trust != nil, transfer: setup.transfer)
        do {
            // Not for an upload: its stage sends several requests, each read whole.
            if let answer = setup.answerLimit, setup.streaming == nil, setup.destination == nil, setup.transfer == nil {
                return .success(
                    try await Self.send(transportRequest, through: chain, context, keeping: answer, setup.timeouts))
            }
            guard let streaming = setup.streaming else {
                return .success(try await Self.send(transportRequest, through: chain, context))
            }
            // A stream's waits are bounded by the provider, never its whole body (StreamTimeouts).
            let timeouts = StreamTimeouts(setup.timeouts)
            transportRequest.timeout = timeouts.forExchange
            transportRequest.delivery = .stream
            transportRequest.streamingLimits = streaming.limits
            return .success(
                try await Self.stream(
                    transportRequest, through: chain, context, into: streaming,
                    StreamAttempt(validationType: setup.validationType, timeouts: timeouts)))
        } catch {
            return .failure(error)
        }
    }

    /// Validation, then, for a download, the move to its destination.
    private func settle(
        _ received: TransportResponse, request: URLRequest, setup: AttemptSetup
    ) -> Result<Response, AttemptFailure> {
        let accepted = setup.validationType.accepts(received.statusCode)
        var data = received.data
        var fileURL: URL?
        let bridged: URL?
        do {
            bridged = try Self.bridgedDownload(received, setup: setup, accepted: accepted)
        } catch {
            return .failure(AttemptFailure(error: .exchange(error, request: request), request: request))
        }
        if let file = received.fileURL ?? bridged {
            if bridged != nil { data = Data() }
            if !accepted {
                data = DownloadPlacement.discard(file)
            } else if let destination = setup.destination {
                do {
                    fileURL = try DownloadPlacement.place(file, destination: destination, response: received.response)
                } catch {
                    return .failure(AttemptFailure(error: .exchange(error, request: request), request: request))
                }
            }
        }
        let response = Response(
            statusCode: received.statusCode, data: data, request: request, source: received.source,
            fileURL: fileURL, headerFields: received.receivedFields, transportResends: received.resends,
            protocolVersion: received.protocolVersion, cacheRecord: received.cacheRecord)
        guard accepted else { return .failure(AttemptFailure(error: .statusCode(response), request: request)) }
        return .success(response)
    }

    /// For a download whose transport returned the body in memory: the body written to a
    /// temporary file, to be placed like any download. `nil` when there is nothing to bridge.
    /// - Throws: ``TransferError/cannotWriteFile(_:)``.
    private static func bridgedDownload(
        _ received: TransportResponse, setup: AttemptSetup, accepted: Bool
    ) throws(TransferError) -> URL? {
        guard received.fileURL == nil, setup.destination != nil, accepted else { return nil }
        let file = try DownloadFile()
        guard file.write(received.data), file.flush() else {
            file.delete()
            throw .cannotWriteFile(file.url)
        }
        file.close()
        return file.url
    }

    /// The request options honoured for a request of `setup`: the stub engine's, or the
    /// provider's (its engine's and its cache's).
    @inline(__always)
    private func capabilities(_ setup: AttemptSetup) -> TransportCapabilities {
        setup.stubbed ? setup.engine.capabilities : capabilities
    }

    /// The interceptor's `adapt`, then the checks every request must pass before it is sent
    /// (``HeaderFieldRules``): the last point before the transport.
    @inline(__always)
    private func adapt(
        _ request: URLRequest, attempt: Int, setup: AttemptSetup
    ) async -> Result<URLRequest, AttemptFailure> {
        var adapted = request
        if let interceptor {
            do {
                let context = setup.context(attempt: attempt)
                if let deadline = setup.timeouts.deadline, !interceptorBoundsItsWaits {
                    // A refresh waited for in `adapt` counts against the request's total time.
                    let adapt: @Sendable () async throws -> URLRequest = {
                        try await interceptor.adapt(request, context: context)
                    }
                    adapted = try await TimeLimit.run(
                        seconds: max(0.001, deadline.remaining), clock: setup.timeouts.limitClock,
                        timers: setup.timeouts.timers, discard: { _ in }, adapt)
                } else {
                    adapted = try await interceptor.adapt(request, context: context)
                }
            } catch {
                return .failure(
                    AttemptFailure(error: Self.failure(error) { .adaptation($0, request: request) }, request: request))
            }
        }
        if Task.isCancelled { return .failure(AttemptFailure(error: .cancelled, request: adapted)) }
        do throws(RequestValidationError) {
            let method = adapted.httpMethod
            if let invalid = RequestValidationError.check(adapted, method: method) { throw invalid }
            if let unsupported = TransportCapabilities.refusal(
                of: adapted, repeating: setup.repeatedHeaderFields, socket: setup.socket != nil,
                honoured: capabilities(setup), by: setup.engine)
            {
                throw unsupported
            }
            let checked = try HeaderFieldRules.checked(adapted, method: method)
            guard setup.socket != nil else { return .success(checked) }
            return Self.socketHandshake(checked)
        } catch {
            return .failure(AttemptFailure(error: .adaptation(error, request: adapted), request: adapted))
        }
    }

    /// A socket's handshake as plugins and the interceptor left it, held to the handshake's rules
    /// again (a `GET` without a body; `ws:` and `wss:` made `http:` and `https:`).
    private static func socketHandshake(_ request: URLRequest) -> Result<URLRequest, AttemptFailure> {
        do {
            return .success(try WebSocketUpgrade.handshake(request, task: .requestPlain))
        } catch {
            return .failure(AttemptFailure(error: .adaptation(error, request: request), request: request))
        }
    }
}
