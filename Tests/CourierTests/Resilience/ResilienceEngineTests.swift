import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policies over URLSession against a real loopback server, on a clock the test moves: the
/// network is real, the breaker's break and the back-off are virtual.
@Suite("Resilience over URLSession")
struct ResilienceEngineTests {
    let clock = TestClock()
    let policy = ResiliencePolicy(
        circuitBreaker: CircuitBreaker(minimumThroughput: 1000, consecutiveFailures: 3), serverBackOff: ServerBackOff())

    func provider() -> Provider<OrderTarget> {
        Provider<OrderTarget>(
            transport: URLSessionTransport(), options: ProviderOptions(resilience: policy, clock: clock))
    }

    @Test("a server answering 503 opens the breaker: refused requests never reach it; it closes once a probe succeeds")
    func unavailable() async throws {
        let healthy = TestBox(false)
        let server = try LoopbackServer { _ in healthy.value ? .json("{}") : ServerReply(status: 503) }
        defer { server.stop() }
        let provider = provider()
        let target = OrderTarget(baseURL: server.baseURL)
        for _ in 0..<3 { #expect(await provider.result(for: target).status == 503) }
        let refused = await provider.result(for: target)
        #expect(refused.refusal == .circuitOpen(retryAfter: 5))
        #expect(server.requests.count == 3)

        healthy.modify { $0 = true }
        clock.advance(by: 5)
        #expect(await provider.result(for: target).status == 200)
        #expect(await provider.result(for: target).status == 200)
        #expect(server.requests.count == 5)
    }

    @Test("refused connections open it too; a server started on the port afterwards is found by the probe")
    func refused() async throws {
        let closed = try ClosedPort()
        let provider = provider()
        let target = OrderTarget(baseURL: closed.baseURL)
        for _ in 0..<3 {
            let result = await provider.result(for: target)
            guard case .failure(.transport(let failure as TransportFailure, _)) = result else {
                Issue.record("expected a refused connection, got \(result)")
                return
            }
            #expect(failure.kind == .cannotConnect)
        }
        #expect(await provider.result(for: target).refusal == .circuitOpen(retryAfter: 5))
        closed.release()
        let server = try LoopbackServer(port: closed.port) { _ in .json("{}") }
        defer { server.stop() }
        clock.advance(by: 5)
        #expect(await provider.result(for: target).status == 200)
    }

    @Test("connections cut after the request was read count as failures: the breaker opens, the server is spared")
    func cutAfterRequest() async throws {
        let server = try LoopbackServer { _ in .closeConnection }
        defer { server.stop() }
        let provider = provider()
        let target = OrderTarget(baseURL: server.baseURL)
        for _ in 0..<3 {
            let result = await provider.result(for: target)
            guard case .failure(.transport(let failure as TransportFailure, _)) = result else {
                Issue.record("expected a cut connection, got \(result)")
                return
            }
            #expect(failure.kind != .cannotConnect)
        }
        let reached = server.requests.count
        #expect(await provider.result(for: target).refusal == .circuitOpen(retryAfter: 5))
        #expect(server.requests.count == reached)
    }

    @Test("a 429 with Retry-After holds the next request to the host back until then")
    func retryAfter() async throws {
        let count = TestBox(0)
        let server = try LoopbackServer { _ in
            count.modify { $0 += 1 }
            return count.value == 1 ? ServerReply(status: 429, headers: ["Retry-After": "3"]) : .json("{}")
        }
        defer { server.stop() }
        let provider = provider()
        let target = OrderTarget(baseURL: server.baseURL)
        #expect(await provider.result(for: target).status == 429)
        let held = Task { await provider.result(for: target) }
        try await clock.waitForSleepers(1)
        #expect(server.requests.count == 1)
        clock.advance(by: 3.3)
        #expect(await held.value.status == 200)
        #expect(server.requests.count == 2)
    }
}

/// A streamed response through the policies: its head passes the gates and teaches the breaker;
/// its place of the concurrency limit is given back when the head has arrived, not when the body
/// ends.
@Suite("Resilience and streamed responses")
struct ResilienceStreamTests {
    @Test("a stream being read holds no place: another request goes while its body is still open")
    func placeReleasedAtHead() async throws {
        let server = try LoopbackServer { request in
            guard request.path == "/stream" else { return .json("{}") }
            return .stall(Data(repeating: UInt8(ascii: "a"), count: 1000), after: 12)
        }
        defer { server.stop() }
        let provider = Provider<OrderTarget>(
            transport: URLSessionTransport(),
            options: ProviderOptions(resilience: ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1))))
        var streamed = OrderTarget(baseURL: server.baseURL)
        streamed.path = "/stream"
        let stream = try await provider.stream(streamed)
        #expect(stream.statusCode == 200)
        // The body is still open (the server stalls after 12 of its 1,000 bytes), yet the place is free.
        #expect(await provider.result(for: OrderTarget(baseURL: server.baseURL)).status == 200)
        _ = stream
    }

    @Test("streams answered 503 open the breaker; the next stream is refused without a request")
    func breakerOnHeads() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        defer { server.stop() }
        let provider = Provider<OrderTarget>(
            transport: URLSessionTransport(),
            options: ProviderOptions(
                resilience: ResiliencePolicy(
                    circuitBreaker: CircuitBreaker(minimumThroughput: 1000, consecutiveFailures: 2)), clock: TestClock()
            ))
        let target = OrderTarget(baseURL: server.baseURL)
        for _ in 0..<2 {
            await #expect(throws: CourierError.self) { _ = try await provider.stream(target) }
        }
        do {
            _ = try await provider.stream(target)
            Issue.record("expected a refusal")
        } catch .transport(let refusal as ResilienceError, _) {
            #expect(refusal == .circuitOpen(retryAfter: 5))
        } catch {
            Issue.record("expected a refusal, got \(error)")
        }
        #expect(server.requests.count == 2)
    }
}
