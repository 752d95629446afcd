import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Rate limits a server announces in its fields (GitHub's `x-ratelimit-*`, the IETF `RateLimit`
/// fields, a `Retry-After` on a 403 or 429), read by `RetryPolicy` and `ServerBackOff`.
@Suite("Server rate limits")
struct ServerRateLimitTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func fields(_ pairs: KeyValuePairs<String, String>) -> HeaderFields {
        var fields = HeaderFields()
        for (name, value) in pairs { fields.append(name: name, value: value) }
        return fields
    }

    @Test("the fields that announce a wait, and those that do not")
    func announcedWaits() {
        let github = fields(["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1700000600"])
        #expect(
            ServerWait.announced(status: 403, fields: github, now: now) == ServerWait(seconds: 600, isRateLimit: true))
        #expect(ServerWait.announced(status: 429, fields: github, now: now)?.seconds == 600)
        // A reset in the past: the limit is back now.
        let past = fields(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1699999000"])
        #expect(ServerWait.announced(status: 403, fields: past, now: now)?.seconds == 0)
        // The IETF draft, both revisions: seconds from now.
        let draft = fields(["RateLimit-Remaining": "0", "RateLimit-Reset": "30"])
        #expect(ServerWait.announced(status: 429, fields: draft, now: now)?.seconds == 30)
        let combined = fields(["RateLimit": "\"default\";r=0;t=45"])
        #expect(ServerWait.announced(status: 429, fields: combined, now: now)?.seconds == 45)
        let listed = fields(["RateLimit": "limit=100, remaining=0, reset=50"])
        #expect(ServerWait.announced(status: 403, fields: listed, now: now)?.seconds == 50)
        // A 429's status says the limit is spent; a 403's does not.
        let resetOnly = fields(["RateLimit-Reset": "20"])
        #expect(ServerWait.announced(status: 429, fields: resetOnly, now: now)?.seconds == 20)
        #expect(ServerWait.announced(status: 403, fields: resetOnly, now: now) == nil)
        // A permission denied, and a limit not yet spent.
        #expect(ServerWait.announced(status: 403, fields: HeaderFields(), now: now) == nil)
        let left = fields(["x-ratelimit-remaining": "12", "x-ratelimit-reset": "1700000600"])
        #expect(ServerWait.announced(status: 403, fields: left, now: now) == nil)
        #expect(ServerWait.announced(status: 429, fields: left, now: now) == nil)
        // GitHub's secondary limit: a 403 with Retry-After. A 503's Retry-After is no rate limit.
        let secondary = fields(["Retry-After": "60"])
        #expect(
            ServerWait.announced(status: 403, fields: secondary, now: now) == ServerWait(seconds: 60, isRateLimit: true)
        )
        #expect(
            ServerWait.announced(status: 503, fields: secondary, now: now)
                == ServerWait(seconds: 60, isRateLimit: false))
        // Nonsense is ignored.
        let junk = fields(["x-ratelimit-remaining": "0", "x-ratelimit-reset": "soon"])
        #expect(ServerWait.announced(status: 403, fields: junk, now: now) == nil)
    }

    func failure(_ status: Int, _ headers: [String: String]) -> RetryPolicy.Attempt {
        let url = URL(string: "https://api.github.test/user")!
        let http = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        let response = Response(statusCode: status, data: Data(), request: URLRequest(url: url), response: http)
        return RetryPolicy.Attempt(request: URLRequest(url: url), error: .statusCode(response), number: 1)
    }

    /// The delay of a `.retryWithDelay`, `nil` for anything else.
    func delay(_ result: RetryResult) -> TimeInterval? {
        if case .retryWithDelay(let seconds) = result { seconds } else { nil }
    }

    @Test("RetryPolicy: no retry before the reset, none at all past maximumRetryAfter; a plain 403 never")
    func retryPolicy() {
        let policy = RetryPolicy(jitter: .none)
        let reset = "\(Int(now.timeIntervalSince1970) + 30)"
        let soon = failure(429, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": reset])
        #expect(delay(policy.decision(for: soon, random: 0, now: now)) == 30)
        let secondary = failure(403, ["Retry-After": "5"])
        #expect(delay(policy.decision(for: secondary, random: 0, now: now)) == 5)
        let spent403 = failure(403, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": reset])
        #expect(delay(policy.decision(for: spent403, random: 0, now: now)) == 30)

        let hourly = "\(Int(now.timeIntervalSince1970) + 3_600)"
        let later = failure(429, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": hourly])
        #expect(delay(policy.decision(for: later, random: 0, now: now)) == nil)
        #expect(delay(policy.decision(for: failure(403, [:]), random: 0, now: now)) == nil)
        // A 429 that says nothing more keeps the computed backoff.
        #expect(delay(policy.decision(for: failure(429, [:]), random: 0, now: now)) == 0.5)
    }

    @Test("a spent limit holds every later call of the scope until the reset, named in the error")
    func heldUntilReset() async throws {
        let clock = TestClock(start: now)
        let transport = ScriptedTransport(fallback: .status(200))
        let target = OrderTarget(baseURL: URL(string: "https://api.github.test")!)
        let resetAt = now.addingTimeInterval(600)
        let limited = ScriptedReply.status(
            403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(Int(resetAt.timeIntervalSince1970))"])
        transport.enqueue([limited], for: target)
        let provider = Provider<OrderTarget>(
            transport: transport, interceptor: .retryPolicy,
            options: ProviderOptions(resilience: .standard, clock: clock))

        #expect(await provider.result(for: target).status == 403)
        for _ in 0..<5 {
            #expect(await provider.result(for: target).refusal == .rateLimitExhausted(until: resetAt))
        }
        #expect(transport.requests.count == 1)

        clock.advance(by: 600)
        #expect(await provider.result(for: target).status == 200)
        #expect(transport.requests.count == 2)
    }

    @Test("a 429 that announces its reset is no failure to the breaker: after nine 503s in a row it stays closed")
    func rateLimitIsNoFailure() async throws {
        let clock = TestClock(start: now)
        let transport = ScriptedTransport(fallback: .status(200))
        let target = OrderTarget(baseURL: URL(string: "https://api.github.test")!)
        let reset = "\(Int(now.timeIntervalSince1970) + 60)"
        transport.enqueue(
            Array(repeating: .status(503), count: 9)
                + [.status(429, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": reset])],
            for: target)
        let provider = Provider<OrderTarget>(
            transport: transport, options: ProviderOptions(resilience: .standard, clock: clock))
        for _ in 0..<10 { _ = await provider.result(for: target) }

        #expect(transport.requests.count == 10)
        #expect(provider.resilienceStates.providerState(url: target.baseURL)?.circuitState == .closed)
        clock.advance(by: 60)
        #expect(await provider.result(for: target).status == 200)
    }

    @Test("a 403 that denies permission is neither retried nor held: the next call reaches the server")
    func permissionDenied() async throws {
        let clock = TestClock(start: now)
        let transport = ScriptedTransport(fallback: .status(200))
        let target = OrderTarget(baseURL: URL(string: "https://api.github.test")!)
        transport.enqueue([.status(403)], for: target)
        let provider = Provider<OrderTarget>(
            transport: transport, interceptor: .retryPolicy,
            options: ProviderOptions(resilience: .standard, clock: clock))

        #expect(await provider.result(for: target).status == 403)
        #expect(await provider.result(for: target).status == 200)
        #expect(transport.requests.count == 2)
    }

    @Test("a secondary limit (403 + Retry-After) holds the scope; a short one is waited out by the next call")
    func secondaryLimit() async throws {
        let clock = TestClock(start: now)
        let transport = ScriptedTransport(fallback: .status(200))
        let target = OrderTarget(baseURL: URL(string: "https://api.github.test")!)
        transport.enqueue([.status(403, headers: ["Retry-After": "10"])], for: target)
        let provider = Provider<OrderTarget>(
            transport: transport, options: ProviderOptions(resilience: .standard, clock: clock))

        #expect(await provider.result(for: target).status == 403)
        let held = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1)
        #expect(transport.requests.count == 1)
        clock.advance(by: 11)
        #expect(await held.value.status == 200)
    }

    @Test("hedging copies GET but not DELETE or PUT, unless the policy names the method")
    func hedgesSafeMethodsOnly() async throws {
        let clock = TestClock()
        let target = OrderTarget(baseURL: URL(string: "https://api.test")!)
        for (method, methods, copies) in [
            (HTTPMethod.delete, Hedging.safeMethods, 1), (.put, Hedging.safeMethods, 1),
            (.put, Hedging.safeMethods.union([.put]), 2),
        ] {
            let slow = SlowFirstTransport(clock: clock, slowness: 1)
            let provider = Provider<OrderTarget>(
                transport: slow,
                options: ProviderOptions(
                    resilience: ResiliencePolicy(hedging: Hedging(delay: .fixed(0.1), methods: methods)), clock: clock))
            var request = target
            request.method = method
            let call = Task { await provider.result(for: request) }
            try await clock.waitForSleepers(copies == 1 ? 1 : 2)
            clock.advance(by: copies == 1 ? 1 : 0.1)
            #expect(await call.value.status == 200)
            #expect(slow.sent == copies, "\(method) with \(methods)")
        }
    }

    @Test("a token taken after a wait for the rate limit goes back when the concurrency limit then refuses")
    func tokenReturnedOnRefusal() async throws {
        let clock = TestClock()
        let target = OrderTarget(baseURL: URL(string: "https://api.test")!)
        let slow = SlowFirstTransport(clock: clock, slowness: 100)
        let policy = ResiliencePolicy(
            concurrencyLimit: ConcurrencyLimit(maximum: 1),
            rateLimit: RateLimit(permits: 1, interval: 10, maximumWait: 20))
        let provider = Provider<Impatient>(transport: slow, options: ProviderOptions(resilience: policy, clock: clock))
        let first = Task { await provider.result(for: Impatient(baseURL: target.baseURL)) }
        try await clock.waitForSleepers(1)  // the first exchange holds the one place
        let second = Task { await provider.result(for: Impatient(baseURL: target.baseURL)) }
        try await clock.waitForSleepers(2)  // the second waits 10 s for a token
        clock.advance(by: 10)
        #expect(await second.value.refusal == .queueFull)

        first.cancel()
        _ = await first.value
        // The refused request's token is back: a request that may not wait goes at once.
        #expect(await provider.result(for: Impatient(baseURL: target.baseURL, totalTimeoutInterval: 1)).status == 200)
    }

    /// A GET with a total timeout of its own.
    struct Impatient: TargetType {
        var baseURL: URL
        var totalTimeoutInterval: TimeInterval?
        var path: String { "/item" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }
}
