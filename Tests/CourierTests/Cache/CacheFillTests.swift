import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A miss that the cache sends for its callers: cancelled with its last caller, and a caller
/// that joined it bound by its own timeout.
@Suite("Cache fills")
struct CacheFillTests {
    /// A GET of `path` with its own per-attempt timeout.
    struct Page: TargetType {
        let baseURL: URL
        var path = "/slow"
        var timeout: TimeInterval?
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var timeoutInterval: TimeInterval? { timeout }
    }

    /// A server whose `/slow` answers (storable for a minute) only once the gate opens; it
    /// counts `/slow`'s arrivals. Other paths answer at once.
    final class SlowServer: Sendable {
        let arrivals = Counter()
        let gate = Gate()
        let server: LoopbackServer

        init() throws {
            let (arrivals, gate) = (arrivals, gate)
            server = try LoopbackServer { request in
                if request.path == "/slow" {
                    arrivals.increment()
                    gate.wait()
                }
                return ServerReply(headers: ["Cache-Control": "max-age=60"], body: Data("ok".utf8))
            }
        }

        var baseURL: URL { server.baseURL }

        /// Lets every held answer go, and stops the server.
        func stop() {
            gate.open()
            server.stop()
        }
    }

    @Test("cancelling a GET through the cache ends its exchange: its concurrency place is free when the call returns")
    func cancellationReachesTheExchange() async throws {
        let server = try SlowServer()
        defer { server.stop() }
        let provider = Provider<Page>(
            transport: URLSessionTransport(),
            options: ProviderOptions(
                cache: HTTPCache(), resilience: ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1))))

        let call = Task { try await provider.request(Page(baseURL: server.baseURL)) }
        try await server.arrivals.waitUntil(1)
        call.cancel()
        #expect(await call.result.isCancellation)

        // The place returned with the caller: the next request is admitted, not refused.
        let next = try await provider.request(Page(baseURL: server.baseURL, path: "/fast"))
        #expect(next.statusCode == 200)
    }

    @Test("a half-open probe cancelled through the cache gives its place back: the next request probes, not refused")
    func cancelledProbe() async throws {
        let clock = TestClock()
        let target = Page(baseURL: URL(string: "https://api.test")!)
        let transport = ScriptedTransport(fallback: .status(200))
        transport.enqueue([.status(503), .delayed(60, .status(200))], for: target)
        let breaker = ResiliencePolicy(circuitBreaker: CircuitBreaker(minimumThroughput: 1, consecutiveFailures: 1))
        let provider = Provider<Page>(
            transport: transport, options: ProviderOptions(cache: HTTPCache(), resilience: breaker, clock: clock))
        #expect(await provider.result(for: target).status == 503)
        clock.advance(by: 5)  // the break is over: the next request is the probe

        let probe = Task { try await provider.request(target) }
        #expect(await waitUntil { transport.requests.count == 2 })
        probe.cancel()
        #expect(await probe.result.isCancellation)

        #expect(await provider.result(for: target).status == 200)
    }

    @Test("the last of several callers to cancel ends the shared exchange; earlier ones leave it running")
    func lastWaiterCancels() async throws {
        let server = try SlowServer()
        defer { server.stop() }
        let cache = HTTPCache()
        let limit = ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1))
        let provider = Provider<Page>(
            transport: URLSessionTransport(), options: ProviderOptions(cache: cache, resilience: limit))
        let first = Task { try await provider.request(Page(baseURL: server.baseURL)) }
        try await server.arrivals.waitUntil(1)
        let second = Task { try await provider.request(Page(baseURL: server.baseURL)) }
        let third = Task { try await provider.request(Page(baseURL: server.baseURL)) }
        let key = HTTPCache.key(server.baseURL.appendingPathComponent("slow"))
        #expect(await waitUntil { cache.fills.waiters(forKey: key) == 3 })

        first.cancel()
        #expect(await first.result.isCancellation)
        second.cancel()
        #expect(await second.result.isCancellation)
        server.gate.open()
        // The exchange went on for the caller still waiting, which gets its answer.
        #expect(try await third.value.statusCode == 200)
        #expect(server.arrivals.value == 1)
    }

    @Test("a request that joins a running fetch of the same URL still ends at its own timeout")
    func joinerKeepsItsTimeout() async throws {
        let server = try SlowServer()
        defer { server.stop() }
        // A safety net only: if the joiner ignored its timeout, the leader's answer ends the test.
        let safety = Task {
            try await Task.sleep(nanoseconds: 8_000_000_000)
            server.gate.open()
        }
        defer { safety.cancel() }
        let provider = Provider<Page>(transport: URLSessionTransport(), options: ProviderOptions(cache: HTTPCache()))
        let leader = Task { try await provider.request(Page(baseURL: server.baseURL, timeout: 30)) }
        try await server.arrivals.waitUntil(1)

        let started = Date()
        let joined = await provider.result(for: Page(baseURL: server.baseURL, timeout: 0.5))
        let took = Date().timeIntervalSince(started)

        guard case .failure(.transport(let failure as TransportFailure, _)) = joined else {
            Issue.record("expected the joiner's own timeout, got \(joined)")
            return
        }
        #expect(failure.kind == .timedOut)
        #expect(took < 5, "the joiner waited \(took) s for a fetch it joined with a 0.5 s timeout")
        server.gate.open()
        #expect(try await leader.value.statusCode == 200)
        #expect(server.arrivals.value == 1)
    }
}

extension Result where Failure == any Error {
    /// Whether this is ``CourierError/cancelled``.
    var isCancellation: Bool {
        guard case .failure(let error) = self, case .cancelled? = error as? CourierError else { return false }
        return true
    }
}
