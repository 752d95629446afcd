import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

extension SerializedSuite {
    /// The resilience policies over AsyncHTTPClient against a real loopback server, on a clock
    /// the test moves: the same behaviour as over URLSession.
    @Suite("Resilience on AsyncHTTPClient")
    struct ResilienceTests {
        let clock = TestClock()
        let policy = ResiliencePolicy(
            circuitBreaker: CircuitBreaker(minimumThroughput: 1000, consecutiveFailures: 3),
            serverBackOff: ServerBackOff())

        func provider() -> Provider<Echo> {
            Provider<Echo>(
                transport: AsyncHTTPClientTransport(), options: ProviderOptions(resilience: policy, clock: clock))
        }

        static func status(_ result: Result<Response, CourierError>) -> Int? {
            switch result {
            case .success(let response): response.statusCode
            case .failure(let error): error.response?.statusCode
            }
        }

        static func refusal(_ result: Result<Response, CourierError>) -> ResilienceError? {
            guard case .failure(.transport(let refusal as ResilienceError, _)) = result else { return nil }
            return refusal
        }

        @Test("a server answering 503 opens the breaker; refusals never reach it; a probe closes it")
        func unavailable() async throws {
            let healthy = TestBox(false)
            let server = try LoopbackServer { _ in healthy.value ? .json("{}") : ServerReply(status: 503) }
            defer { server.stop() }
            let provider = provider()
            let target = Echo(server, "/item")
            for _ in 0..<3 { #expect(Self.status(await provider.result(for: target)) == 503) }
            #expect(Self.refusal(await provider.result(for: target)) == .circuitOpen(retryAfter: 5))
            #expect(server.requests.count == 3)
            healthy.modify { $0 = true }
            clock.advance(by: 5)
            #expect(Self.status(await provider.result(for: target)) == 200)
            #expect(server.requests.count == 4)
        }

        @Test("refused connections open it too")
        func refused() async throws {
            let closed = try ClosedPort()
            let provider = provider()
            let server = try LoopbackServer { _ in .json("{}") }
            var target = Echo(server, "/item")
            server.stop()
            target.baseURL = closed.baseURL
            for _ in 0..<3 {
                guard case .failure(.transport(let failure as TransportFailure, _)) = await provider.result(for: target)
                else {
                    Issue.record("expected a refused connection")
                    return
                }
                #expect(failure.kind == .cannotConnect)
            }
            #expect(Self.refusal(await provider.result(for: target)) == .circuitOpen(retryAfter: 5))
        }

        @Test("a 429 with Retry-After holds the host's next request back until then")
        func retryAfter() async throws {
            let count = TestBox(0)
            let server = try LoopbackServer { _ in
                count.modify { $0 += 1 }
                return count.value == 1 ? ServerReply(status: 429, headers: ["Retry-After": "3"]) : .json("{}")
            }
            defer { server.stop() }
            let provider = provider()
            let target = Echo(server, "/item")
            #expect(Self.status(await provider.result(for: target)) == 429)
            let held = Task { await provider.result(for: target) }
            try await clock.waitForSleepers(1)
            #expect(server.requests.count == 1)
            clock.advance(by: 3.3)
            #expect(Self.status(await held.value) == 200)
        }
    }
}
