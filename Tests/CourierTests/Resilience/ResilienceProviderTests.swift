import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policies through a provider, on a clock the tests move and a transport that fails on purpose.
@Suite("Resilience through the provider")
struct ResilienceProviderTests {
    let clock = TestClock()
    let target = OrderTarget(baseURL: URL(string: "https://api.test")!)

    @Test("an outage opens the breaker: refusals never reach the transport; a probe after the break closes it")
    func breaker() async throws {
        let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)])
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: faults, plugins: [metrics], options: ProviderOptions(resilience: .standard, clock: clock))
        for _ in 0..<10 { _ = await provider.result(for: target) }
        #expect(metrics.lastAttempts.first?.resilience?.circuitTransitions.map(\.to) == [.open])

        let refused = await provider.result(for: target)
        #expect(refused.refusal == .circuitOpen(retryAfter: 5))
        #expect(faults.received.count == 10)

        clock.advance(by: 5)
        let failedProbe = await provider.result(for: target)
        #expect(failedProbe.status == 503)
        #expect(metrics.lastAttempts.first?.resilience?.wasProbe == true)
        #expect(metrics.lastAttempts.first?.resilience?.circuitTransitions.map(\.to) == [.halfOpen, .open])

        clock.advance(by: 5)
        let probe = await provider.result(for: target)
        #expect(probe.status == 200)
        #expect(metrics.lastAttempts.first?.resilience?.circuitTransitions.map(\.to) == [.halfOpen, .closed])
        #expect(await provider.result(for: target).status == 200)
        #expect(faults.received.count == 13)
    }

    @Test("a 429 with Retry-After holds the host's next request back until then; with no patience it fails fast")
    func serverBackOff() async throws {
        let faults = FaultInjectingTransport(
            clock: clock, outages: [Outage(from: 0, to: 1, fault: .status(429, retryAfter: 2))])
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: faults, plugins: [metrics], options: ProviderOptions(resilience: .standard, clock: clock))
        #expect(await provider.result(for: target).status == 429)

        let held = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1)
        clock.advance(by: 1.9)
        #expect(faults.received.count == 1)
        clock.advance(by: 0.3)  // the wait is 2 s plus a spread of up to 0.2 s
        #expect(await held.value.status == 200)
        let wait = try #require(metrics.lastAttempts.first?.resilience?.backOffWait)
        #expect(wait >= 2 && wait < 2.2)
        #expect(faults.received.last.map { $0 >= 2 } == true)

        let impatient = Provider<OrderTarget>(
            transport: FaultInjectingTransport(
                clock: clock, outages: [Outage(from: 2, to: 3, fault: .status(503, retryAfter: 60))]),
            options: ProviderOptions(
                resilience: ResiliencePolicy(serverBackOff: ServerBackOff(maximumWait: 0)), clock: clock))
        #expect(await impatient.result(for: target).status == 503)
        #expect(await impatient.result(for: target).refusal == .backingOff(retryAfter: 60))
    }

    @Test("a spent retry budget ends the request with its own error, and the attempt says why")
    func budget() async throws {
        let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)])
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: faults, plugins: [metrics], interceptor: .retryPolicy,
            options: ProviderOptions(
                resilience: ResiliencePolicy(retryBudget: RetryBudget(ratio: 0, minimumPerSecond: 0)), clock: clock))
        let result = await provider.result(for: target)
        guard case .failure(.statusCode(let response)) = result else {
            Issue.record("expected the 503, got \(result)")
            return
        }
        #expect(response.statusCode == 503)
        #expect(faults.received.count == 1)
        #expect(metrics.lastAttempts.map(\.retryRefusal) == [.retryBudget])
    }

    @Test("the policy's total timeout bounds retries on the provider's clock; the attempt says why none followed")
    func totalTimeout() async throws {
        let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)])
        let metrics = MetricsCatcher()
        var policy = ResiliencePolicy()
        policy.totalTimeout = 3
        let provider = Provider<OrderTarget>(
            transport: faults, plugins: [metrics],
            interceptor: Retrier { _, _, _ in .retryWithDelay(2) },
            options: ProviderOptions(resilience: policy, clock: clock))
        let call = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1, wakingAt: 2)  // the retry delay, not the attempt's time limit
        clock.advance(by: 2)
        #expect(await call.value.status == 503)
        #expect(faults.received == [0, 2])
        #expect(metrics.lastAttempts.map(\.retryRefusal) == [nil, .deadline])
    }

    @Test("the policy's attempt timeout runs on the provider's clock for a transport without its own")
    func attemptTimeout() async throws {
        let faults = FaultInjectingTransport(clock: clock, latency: .fixed(5))
        var policy = ResiliencePolicy()
        policy.attemptTimeout = 1
        let provider = Provider<OrderTarget>(
            transport: faults, options: ProviderOptions(resilience: policy, clock: clock))
        let call = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(2)
        clock.advance(by: 1)
        let result = await call.value
        guard case .failure(.transport(let failure as TransportFailure, _)) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        #expect(failure.kind == .timedOut)
    }

    @Test(
        "a concurrency limit queues, then refuses; the queued request goes when a place frees, and says how long it waited"
    )
    func concurrencyLimit() async throws {
        let faults = FaultInjectingTransport(clock: clock, latency: .fixed(1))
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: faults, plugins: [metrics],
            options: ProviderOptions(
                resilience: ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1, queueLimit: 1)),
                clock: clock))
        let first = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1)
        let second = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(2)  // its queue timeout
        #expect(await provider.result(for: target).refusal == .queueFull)
        clock.advance(by: 1)
        #expect(await first.value.status == 200)
        try await clock.waitForSleepers(1, wakingAt: 2)  // its exchange, once it has the place
        clock.advance(by: 1)
        #expect(await second.value.status == 200)
        #expect(metrics.lastAttempts.first?.resilience?.queueWait == 1)
        #expect(faults.received == [0, 1])
    }

    @Test("a rate limit of 2 per second lets two go, makes the third wait its turn")
    func rateLimit() async throws {
        let faults = FaultInjectingTransport(clock: clock)
        let provider = Provider<OrderTarget>(
            transport: faults,
            options: ProviderOptions(
                resilience: ResiliencePolicy(rateLimit: RateLimit(permits: 2, interval: 1, maximumWait: 1)),
                clock: clock))
        #expect(await provider.result(for: target).status == 200)
        #expect(await provider.result(for: target).status == 200)
        let third = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1)
        clock.advance(by: 0.5)
        #expect(await third.value.status == 200)
        #expect(faults.received == [0, 0, 0.5])
    }

    @Test("a rate limit that may not wait refuses the request past its permits, and lets the next one through in time")
    func rateLimitFailsFast() async throws {
        let faults = FaultInjectingTransport(clock: clock)
        let provider = Provider<OrderTarget>(
            transport: faults,
            options: ProviderOptions(
                resilience: ResiliencePolicy(rateLimit: RateLimit(permits: 1, interval: 10)), clock: clock))
        #expect(await provider.result(for: target).status == 200)
        #expect(await provider.result(for: target).refusal == .rateLimited(retryAfter: 10))
        #expect(await provider.result(for: target).refusal == .rateLimited(retryAfter: 10))
        clock.advance(by: 10)
        #expect(await provider.result(for: target).status == 200)
        #expect(faults.received == [0, 10])
    }

    @Test(
        "hedging: a slow first copy is overtaken by a hedge after the delay, and cancelled",
        .timeLimit(.minutes(1)))
    func hedging() async throws {
        let slow = SlowFirstTransport(clock: clock)
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: slow, plugins: [metrics],
            options: ProviderOptions(resilience: ResiliencePolicy(hedging: Hedging(delay: .fixed(0.1))), clock: clock))
        let call = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(2)  // the first copy, and the hedging delay
        clock.advance(by: 0.1)
        let result = await call.value
        #expect((try? result.get().data) == Data("2".utf8))
        #expect(slow.sent == 2)
        await slow.firstCancellation()
        #expect(slow.cancelled == 1)
        #expect(clock.sleepers == 0)
        let record = try #require(metrics.lastAttempts.first?.resilience)
        #expect(record.hedges == 1)
        #expect(record.answeredBy == 1)
    }

    @Test(
        "a hedged request deposits in the budget like any other: a budget of one retry per request allows its hedge",
        .timeLimit(.minutes(1)))
    func hedgeDeposits() async throws {
        let slow = SlowFirstTransport(clock: clock)
        let provider = Provider<OrderTarget>(
            transport: slow,
            options: ProviderOptions(
                resilience: ResiliencePolicy(
                    retryBudget: RetryBudget(ratio: 1, minimumPerSecond: 0), hedging: Hedging(delay: .fixed(0.1))),
                clock: clock))
        let call = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(2)
        clock.advance(by: 0.1)
        #expect(await call.value.status == 200)
        #expect(slow.sent == 2)
    }

    @Test("a POST is never hedged, nor a hedge sent past the budget")
    func hedgingLimits() async throws {
        let slow = SlowFirstTransport(clock: clock, slowness: 1)
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            transport: slow, plugins: [metrics],
            options: ProviderOptions(resilience: ResiliencePolicy(hedging: Hedging(delay: .fixed(0.1))), clock: clock))
        var post = target
        post.method = .post
        let call = Task { await provider.result(for: post) }
        try await clock.waitForSleepers(1)
        clock.advance(by: 1)
        #expect(await call.value.status == 200)
        #expect(slow.sent == 1)

        let spent = SlowFirstTransport(clock: clock, slowness: 1)
        let budgeted = Provider<OrderTarget>(
            transport: spent,
            options: ProviderOptions(
                resilience: ResiliencePolicy(
                    retryBudget: RetryBudget(ratio: 0, minimumPerSecond: 0), hedging: Hedging(delay: .fixed(0.1))),
                clock: clock))
        let refused = Task { await budgeted.result(for: target) }
        try await clock.waitForSleepers(2)
        clock.advance(by: 0.1)
        try await clock.waitForSleepers(1)
        clock.advance(by: 0.9)
        #expect(await refused.value.status == 200)
        #expect(spent.sent == 1)
    }

    @Test("a target's policy replaces the provider's; state is per host")
    func perTargetAndHost() async throws {
        struct Strict: TargetType {
            var baseURL: URL
            var path: String { "/x" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var resilience: ResiliencePolicy? {
                ResiliencePolicy(circuitBreaker: CircuitBreaker(minimumThroughput: 1, consecutiveFailures: 1))
            }
        }
        let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)])
        let provider = Provider<Strict>(
            transport: faults, options: ProviderOptions(resilience: .standard, clock: clock))
        let one = Strict(baseURL: URL(string: "https://one.test")!)
        #expect(await provider.result(for: one).status == 503)
        #expect(await provider.result(for: one).refusal == .circuitOpen(retryAfter: 5))
        #expect(await provider.result(for: Strict(baseURL: URL(string: "https://two.test")!)).status == 503)
        #expect(await provider.result(for: Strict(baseURL: URL(string: "https://one.test:443/other")!)).refusal != nil)
    }
}

/// How fast the standard breaker opens after a healthy spell.
@Suite("The standard breaker's timing")
struct StandardBreakerTimingTests {
    /// Failures it takes to open `policy`'s breaker after 100 successes in the last second.
    static func failuresToOpen(_ policy: ResiliencePolicy) async -> Int {
        let clock = TestClock()
        let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 1, to: 100)])
        let provider = Provider<OrderTarget>(
            transport: faults, options: ProviderOptions(resilience: policy, clock: clock))
        let target = OrderTarget(baseURL: URL(string: "https://api.test")!)
        for _ in 0..<100 {
            _ = await provider.result(for: target)
            clock.advance(by: 0.01)
        }
        var failures = 0
        while await provider.result(for: target).refusal == nil, failures < 1000 {
            failures += 1
            clock.advance(by: 0.001)
        }
        return failures
    }

    @Test("after 100 successes in the last second: ten failures in a row open it; by the ratio alone, 100")
    func opensAfterARun() async {
        #expect(await Self.failuresToOpen(.standard) == 10)
        #expect(
            await Self.failuresToOpen(ResiliencePolicy(circuitBreaker: CircuitBreaker(consecutiveFailures: nil))) == 100
        )
    }
}
