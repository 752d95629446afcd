import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one path every request takes, whatever its transport or task (see ``Provider``).
///
/// The steps a request passes through once, here and in Provider+Attempt, Provider+Transport and
/// the stub transport, are `@inline(__always)`: each async call costs a task frame and an
/// executor check, and inlining them took a stubbed request from 28 executor switches to 11
/// (callgrind, Benchmarks/README). Plugins are called by index: `for plugin in plugins` copies
/// each existential out of the array and destroys it after the call.
extension Provider {
    /// Runs a request from target to final, processed result, reporting its transfer's progress
    /// to `progress`. With ``trackInflights``, a request that may join an identical one in flight
    /// (``RequestKey/joining(_:task:)``) does, and receives its progress from then on.
    /// A streamed request (`streaming`) never joins another: its body goes to one caller.
    /// A resumable download (`resumingInto`) or upload (`uploading`) never joins another either:
    /// its file is its own.
    /// `handOff` gets the processed result before this returns (a completion handler); the callers
    /// of a joined request run `process` and `handOff` one after another, in the order they joined.
    /// An outbox's try (`outboxTry`) sends its stored key and never joins another either, and
    /// reads only the start of the answer's body (the engine streams it).
    func perform(
        _ target: Target, progress: ProgressReporter? = nil, streaming: StreamHandoff? = nil,
        socket: WebSocketUpgrade? = nil, resumingInto file: URL? = nil, uploading upload: ResumableUploadSource? = nil,
        outboxTry: OutboxTry = OutboxTry(), handOff: (@Sendable (Result<Response, CourierError>) async -> Void)? = nil
    ) async -> Result<Response, CourierError> {
        let endpoint = endpoint(for: target, streaming: streaming)
        let outcome: Result<Response, CourierError>
        if file != nil || upload != nil {
            outcome = await exchange(
                target, endpoint, progress, resumingInto: file, uploading: upload,
                outboxTry: outboxTry)
        } else if trackInflights, streaming == nil, socket == nil, outboxTry.key == nil,
            let request = try? endpoint.urlRequest(),
            let key = RequestKey.joining(request, task: endpoint.task)
        {
            return await inflights.perform(
                key: key, progress: progress,
                work: { shared in await self.exchange(target, endpoint, shared) },
                deliver: { outcome in await self.deliver(outcome, target, handOff) })
        } else {
            outcome = await exchange(
                target, endpoint, progress, streaming: streaming, socket: socket,
                outboxTry: outboxTry)
        }
        return await deliver(outcome, target, handOff)
    }

    /// Runs every plugin's `process` on `outcome`, then `handOff`, and returns the processed result.
    @inline(__always)
    private func deliver(
        _ outcome: Result<Response, CourierError>, _ target: Target,
        _ handOff: (@Sendable (Result<Response, CourierError>) async -> Void)?
    ) async -> Result<Response, CourierError> {
        var result = outcome
        for index in transformingPlugins.indices {
            result = await transformingPlugins[index].process(result, target: target)
        }
        await handOff?(result)
        return result
    }

    /// The endpoint of `target`, with the header fields a streamed request adds for itself.
    private func endpoint(for target: Target, streaming: StreamHandoff?) -> Endpoint {
        let endpoint = endpointClosure(target)
        guard let streaming else { return endpoint }
        let own = Set((endpoint.httpHeaderFields ?? [:]).keys.map { $0.lowercased() })
        let defaults = streaming.defaultHeaders.filter { !own.contains($0.key.lowercased()) }
        return endpoint.adding(newHTTPHeaderFields: defaults.merging(streaming.extraHeaders) { _, extra in extra })
    }

    /// Builds the request, runs its attempts and tells the plugins the outcome: the part of a
    /// request that joined requests share. The engine is the provider's, or the stub engine of a
    /// stubbed target; the stages above it are the provider's chain (``StageChain``).
    @inline(__always)
    private func exchange(
        _ target: Target, _ endpoint: Endpoint, _ progress: (any ProgressSink)?, streaming: StreamHandoff? = nil,
        socket: WebSocketUpgrade? = nil, resumingInto file: URL? = nil, uploading upload: ResumableUploadSource? = nil,
        outboxTry: OutboxTry = OutboxTry()
    ) async -> Result<Response, CourierError> {
        let idempotencyKey = outboxTry.key
        let id = nextRequestID()
        streaming?.requestID = id
        socket?.requestID = id
        let stopwatch = Stopwatch()
        var attempts: [AttemptMetrics] = []
        let result: Result<Response, CourierError>
        switch await buildRequest(endpoint, socket: socket != nil) {
        case .success(var request):
            let idempotency = Self.idempotency(of: target, key: idempotencyKey)
            // One key per request, the same on every attempt; a key the endpoint set is kept,
            // except by an outbox's try, which sends the key stored with its entry.
            if let header = idempotency.keyHeader {
                if let idempotencyKey {
                    request.setHeaderField(idempotencyKey, named: header)
                } else if request.value(forHTTPHeaderField: header) == nil {
                    request.setHeaderField(UUID().uuidString, named: header)
                }
            }
            let stub = stubClosure(target)
            let engine: any Transport =
                stub == .never
                ? transport : StubTransport(behavior: stub, sampleResponse: endpoint.sampleResponseClosure)
            // A request with a trust policy takes the chain whose gate checks each exchange (hops,
            // pieces); no other request pays for it.
            let trust = target.trustPolicy.map(TrustBox.init) ?? trustBox
            let scope = resilienceScope(target, request.url)
            let timeouts = timeouts(endpoint.options, scope)
            let setup = AttemptSetup(
                requestID: id, target: target,
                // A socket opens with a 101; anything else is a refusal (RFC 6455 §4.1).
                validationType: socket == nil ? target.validationType : .customCodes([101]), base: request,
                engine: engine, stubbed: stub != .never, body: endpoint.task.transportBody,
                destination: file.map(ResumableDownload.destination) ?? endpoint.task.downloadDestination,
                resumingInto: file, uploading: upload, transfer: Self.transferStage(file, upload),
                progress: progress, timeouts: timeouts,
                idempotency: idempotency, repeatedHeaderFields: endpoint.repeatedHeaderFields,
                streaming: streaming, socket: socket, cookieJar: cookieJar, sender: self,
                storage: interceptor == nil ? nil : RequestStorage(), scope: scope,
                trust: trust, answerLimit: outboxTry.answerLimit)
            result = await self.attempts(setup, metrics: &attempts)
        case .failure(let error):
            result = .failure(error)
        }
        let metrics = RequestMetrics(
            requestID: id, startDate: stopwatch.startDate, duration: stopwatch.elapsed, attempts: attempts)
        await progress?.flush()
        for index in plugins.indices {
            plugins[index].didReceive(result, target: target, metrics: metrics)
        }
        return result
    }

    /// The target's idempotency; for an outbox's try (a stored `key`), a key in the target's
    /// header (`Idempotency-Key` unless it names another).
    @inline(__always)
    static func idempotency(of target: Target, key: String?) -> Idempotency {
        guard key != nil else { return target.idempotency }
        return .idempotencyKey(header: target.idempotency.keyHeader ?? "Idempotency-Key")
    }

    /// The stage on top of the chain of a resumable download into `file` or upload of `upload`;
    /// `nil` for any other request.
    @inline(__always)
    private static func transferStage(_ file: URL?, _ upload: ResumableUploadSource?) -> (any Stage)? {
        if let upload { return UploadResumeStage(source: upload) }
        return file.map { ResumeStage(destination: $0) }
    }

    /// The resilience state a request to `url` of `target` uses: its own policy's, else the
    /// provider's, or `nil` when neither has one.
    @inline(__always)
    private func resilienceScope(_ target: Target, _ url: URL?) -> ScopeState? {
        if let own = target.resilience { return resilienceStates.state(for: own, url: url) }
        return resilienceStates.hasProviderPolicy ? resilienceStates.providerState(url: url) : nil
    }

    /// The attempt's and the request's limits: the target's, else the policy's, on the provider's clock.
    @inline(__always)
    private func timeouts(_ options: Endpoint.Options, _ scope: ScopeState?) -> Timeouts {
        let total = options.totalLimit ?? scope?.totalTimeout
        return Timeouts(
            attempt: options.attemptLimit ?? scope?.attemptTimeout,
            deadline: total.map { Deadline(after: $0, clock: clock) }, clock: clock, ownClock: hasOwnClock,
            timers: timers)
    }

    @inline(__always)
    private func buildRequest(_ endpoint: Endpoint, socket: Bool) async -> Result<URLRequest, CourierError> {
        guard !Task.isCancelled else { return .failure(.cancelled) }
        do {
            var request = try await requestClosure(endpoint)
            guard !Task.isCancelled else { return .failure(.cancelled) }
            if socket { request = try WebSocketUpgrade.handshake(request, task: endpoint.task) }
            if let refusal = RequestValidationError.check(sending: endpoint.task) {
                return .failure(.requestBuilding(refusal))
            }
            return .success(request)
        } catch {
            return .failure(Self.failure(error) { $0 as? CourierError ?? .requestBuilding($0) })
        }
    }

    /// Makes attempts until one succeeds or the retrier stops them; appends each one's metrics.
    @inline(__always)
    private func attempts(
        _ setup: AttemptSetup, metrics: inout [AttemptMetrics]
    ) async -> Result<Response, CourierError> {
        var number = 1
        while true {
            // The deadline is on the provider's clock, so the attempt's time is measured on it too.
            let started = setup.timeouts.deadline == nil ? 0 : clock.now()
            let (outcome, attemptMetrics) = await measuredAttempt(number, setup)
            metrics.append(attemptMetrics)
            observe(outcome, number, attemptMetrics, setup)
            let failure: AttemptFailure
            switch outcome {
            case .success(let response): return .success(response)
            case .failure(let attemptFailure): failure = attemptFailure
            }
            if case .cancelled = failure.error { return .failure(.cancelled) }
            let took = setup.timeouts.deadline == nil ? 0 : clock.now() - started
            switch await retryDecision(after: failure, setup: setup, attempt: number, took: took) {
            case .retry:
                metrics[metrics.count - 1].retryReason = setup.storage?.takeRetryReason() ?? .failure
                number += 1
            case .finish(let error, let refusal):
                if let refusal { metrics[metrics.count - 1].retryRefusal = refusal }
                return .failure(error)
            }
        }
    }

    /// Tells every plugin how the attempt ended, before the retrier decides.
    private func observe(
        _ outcome: Result<Response, AttemptFailure>, _ number: Int, _ metrics: AttemptMetrics,
        _ setup: AttemptSetup
    ) {
        guard !plugins.isEmpty else { return }
        let attempt: AttemptOutcome
        switch outcome {
        case .success(let response):
            attempt = AttemptOutcome(
                requestID: setup.requestID, attempt: number, result: .success(response),
                request: response.request ?? setup.base, metrics: metrics)
        case .failure(let failure):
            attempt = AttemptOutcome(
                requestID: setup.requestID, attempt: number, result: .failure(failure.error), request: failure.request,
                metrics: metrics)
        }
        for index in plugins.indices {
            plugins[index].didCompleteAttempt(attempt, target: setup.target)
        }
    }

    private enum Decision {
        case retry
        case finish(CourierError, RetryRefusal? = nil)
    }

    /// Asks the retrier about a failed attempt and waits out any delay it asks for. A retry that
    /// could not finish within the request's deadline (it would start after it, or with less time
    /// left than the failed attempt `took`) is not made, nor one the scope's retry budget refuses.
    private func retryDecision(
        after failure: AttemptFailure, setup: AttemptSetup, attempt: Int, took: TimeInterval
    ) async -> Decision {
        guard let interceptor else { return .finish(failure.error) }
        let context = setup.context(attempt: attempt, response: failure.error.response)
        let result = await interceptor.retry(failure.request, dueTo: failure.error, context: context)
        guard !Task.isCancelled else { return .finish(.cancelled) }
        // A body that can be read only once is never sent again, and the error says so.
        if result.retries, !setup.body.canBeSentAgain(in: failure.request) {
            return .finish(.underlying(TransferError.streamNotReplayable, failure.error.response))
        }
        let delay: TimeInterval
        switch result {
        case .retry: delay = 0
        case .retryWithDelay(let seconds): delay = seconds
        case .doNotRetry: return .finish(failure.error)
        case .doNotRetryWithError(let error):
            return .finish(error as? CourierError ?? .underlying(error, failure.error.response))
        }
        if setup.timeouts.forbidsRetry(after: delay, previous: took) { return .finish(failure.error, .deadline) }
        if let scope = setup.scope, !scope.allowsRetry(now: clock.now()) {
            return .finish(failure.error, .retryBudget)
        }
        guard delay > 0 else { return .retry }
        do {
            try await clock.sleep(seconds: delay)
            return .retry
        } catch {
            return .finish(.cancelled)
        }
    }

    /// Maps a thrown error with `wrap`, unless the task was cancelled or the error is a
    /// cancellation: then it is ``CourierError/cancelled``, the one cancellation error.
    static func failure(_ error: any Error, wrap: (any Error) -> CourierError) -> CourierError {
        if Task.isCancelled || error is CancellationError { return .cancelled }
        if let urlError = error as? URLError, urlError.code == .cancelled { return .cancelled }
        if case .cancelled? = error as? CourierError { return .cancelled }
        return wrap(error)
    }
}

/// What an outbox's try asks of the pipeline beyond a request: its stored idempotency key, and
/// the most bytes of the answer's body to read (an outcome keeps only its start: a lying server's
/// endless 2xx body never fills memory).
struct OutboxTry: Sendable {
    var key: String?
    var answerLimit: AnswerLimit?
}
