import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order with a ``ResiliencePolicy``: a refusal answers in the transport's place, a wait
/// for a limit or a back-off sits between the transmitted-request observation and the exchange,
/// and hedged copies are exchanges of one attempt. `.send` is the engine's own call, below the
/// policy, so it shows what reached the network.
@Suite("Call order with resilience policies")
struct ResilienceCallOrderTests {
    let clock = TestClock()
    let recorder = CallRecorder()
    let target = OrderTarget(baseURL: URL(string: "https://api.test")!)

    func provider(_ engine: any Transport, _ policy: ResiliencePolicy) -> Provider<OrderTarget> {
        Provider<OrderTarget>(
            transport: RecordingTransport(engine, recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder),
            options: ProviderOptions(resilience: policy, clock: clock))
    }

    /// Runs one request and records its completion.
    func run(_ provider: Provider<OrderTarget>, _ target: OrderTarget) async -> Result<Response, CourierError> {
        let result = await provider.result(for: target)
        recorder.record(.completion(.init(result)))
        return result
    }

    /// The hooks of an attempt up to the transmitted-request observation: what has run when a
    /// policy makes the attempt wait or refuses it.
    static let beforeExchange: [HookEvent] = [
        .prepare("P1"), .willSend("P1", attempt: 1), .adapt(attempt: 1), .willTransmit("P1", attempt: 1),
    ]

    @Test("refused by the open breaker: every hook of a failed attempt but the engine's send")
    func refusedByBreaker() async {
        let policy = ResiliencePolicy(circuitBreaker: CircuitBreaker(minimumThroughput: 1, consecutiveFailures: 1))
        let provider = provider(FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)]), policy)
        _ = await run(provider, target)
        recorder.reset()

        let result = await run(provider, target)
        #expect(result.refusal == .circuitOpen(retryAfter: 5))
        let failure = HookEvent.Outcome.failure(.transport)
        #expect(
            recorder.events
                == Self.beforeExchange + [
                    .didCompleteAttempt("P1", attempt: 1, failure), .retry(attempt: 1, failure),
                ] + .finish(failure))
    }

    @Test("held back by a 429's Retry-After: the wait comes after the observation, then the network sequence")
    func heldBackByRetryAfter() async throws {
        let faults = FaultInjectingTransport(
            clock: clock, outages: [Outage(from: 0, to: 1, fault: .status(429, retryAfter: 2))])
        let provider = provider(faults, ResiliencePolicy(serverBackOff: ServerBackOff()))
        _ = await run(provider, target)
        let rejected = HookEvent.Outcome.failure(.validation)
        #expect(
            recorder.events
                == [HookEvent].attempt(1, rejected) + [.retry(attempt: 1, rejected)] + .finish(rejected))
        recorder.reset()

        let held = Task { await run(provider, target) }
        try await clock.waitForSleepers(1)
        #expect(recorder.events == Self.beforeExchange)
        clock.advance(by: 2.2)
        _ = await held.value
        #expect(recorder.events == [HookEvent].attempt(1, .success(200)) + .finish(.success(200)))
    }

    @Test("held by a spent rate limit: the 403 that says so runs as any rejection, then a refusal sends nothing")
    func heldBySpentRateLimit() async throws {
        let engine = ScriptedTransport(fallback: .status(200))
        let reset = Int(clock.date().timeIntervalSince1970) + 600
        engine.enqueue(
            [.status(403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)"])], for: target)
        let provider = provider(engine, .standard)
        _ = await run(provider, target)
        let rejected = HookEvent.Outcome.failure(.validation)
        #expect(
            recorder.events
                == [HookEvent].attempt(1, rejected) + [.retry(attempt: 1, rejected)] + .finish(rejected))
        recorder.reset()

        let result = await run(provider, target)
        #expect(result.refusal == .rateLimitExhausted(until: Date(timeIntervalSince1970: TimeInterval(reset))))
        let refused = HookEvent.Outcome.failure(.transport)
        #expect(
            recorder.events
                == Self.beforeExchange + [
                    .didCompleteAttempt("P1", attempt: 1, refused), .retry(attempt: 1, refused),
                ] + .finish(refused))
    }

    @Test("hedged: one attempt, two sends, the first good answer; the hooks run once")
    func hedged() async throws {
        let provider = provider(
            SlowFirstTransport(clock: clock), ResiliencePolicy(hedging: Hedging(delay: .fixed(0.1))))
        let call = Task { await run(provider, target) }
        try await clock.waitForSleepers(2)
        clock.advance(by: 0.1)
        _ = await call.value
        #expect(
            recorder.events
                == Self.beforeExchange + [.send, .send, .didCompleteAttempt("P1", attempt: 1, .success(200))]
                + .finish(.success(200)))
    }

    @Test("queued by the concurrency limit: the wait comes after the observation; each request keeps its own sequence")
    func queuedByBulkhead() async throws {
        let first = CallRecorder()
        let second = CallRecorder()
        let routes = ["/first": first, "/second": second]
        let provider = Provider<OrderTarget>(
            transport: PathRoutedTransport(
                base: FaultInjectingTransport(clock: clock, latency: .fixed(1)), recorders: routes),
            plugins: [PathRoutedPlugin(recorders: routes)], interceptor: PathRoutedInterceptor(recorders: routes),
            options: ProviderOptions(
                resilience: ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1, queueLimit: 1)),
                clock: clock))
        var one = target
        one.path = "/first"
        var two = target
        two.path = "/second"
        let running = Task { await provider.result(for: one) }
        try await clock.waitForSleepers(1)
        let queued = Task { await provider.result(for: two) }
        try await clock.waitForSleepers(2)
        #expect(second.events == Self.beforeExchange)
        clock.advance(by: 1)
        _ = await running.value
        try await clock.waitForSleepers(1, wakingAt: 2)
        #expect(second.events == Self.beforeExchange + [.send])
        clock.advance(by: 1)
        _ = await queued.value
        let network =
            [HookEvent].attempt(1, .success(200)) + [.didReceive("P1", .success(200)), .process("P1", .success(200))]
        #expect(first.events == network)
        #expect(second.events == network)
    }
}

/// Hands each hook to a recording plugin chosen by the target's path.
private struct PathRoutedPlugin: PluginType {
    let recorders: [String: CallRecorder]

    func plugin(_ target: any TargetType) -> RecordingPlugin {
        RecordingPlugin("P1", recorder: recorders[target.path]!, observesAttempts: true)
    }

    func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
        try await plugin(target).prepare(request, target: target)
    }
    func willSend(_ request: PreparedRequest, target: any TargetType) {
        plugin(target).willSend(request, target: target)
    }
    func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        plugin(target).willTransmit(request, target: target)
    }
    func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        plugin(target).didCompleteAttempt(outcome, target: target)
    }
    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
        plugin(target).didReceive(result, target: target)
    }
    func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
        Response, CourierError
    > {
        await plugin(target).process(result, target: target)
    }
}

/// Records `adapt` and `retry` in the recorder of the target's path.
private struct PathRoutedInterceptor: RequestInterceptor {
    let recorders: [String: CallRecorder]

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        try await RecordingInterceptor(recorder: recorders[context.target.path]!).adapt(request, context: context)
    }
    func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async -> RetryResult {
        await RecordingInterceptor(recorder: recorders[context.target.path]!)
            .retry(request, dueTo: error, context: context)
    }
}

/// Records `.send` in the recorder of the request's path.
private struct PathRoutedTransport: Transport {
    let base: any Transport
    let recorders: [String: CallRecorder]

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = request.urlRequest.url?.path ?? ""
        return try await RecordingTransport(base, recorder: recorders[path]!).send(request)
    }
}
