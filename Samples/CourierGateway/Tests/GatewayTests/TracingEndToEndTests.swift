import AsyncHTTPClient
import CourierAsyncHTTPClient
import Foundation
import Gateway
import InMemoryTracing
import Logging
import Testing
import Tracing

/// One trace per call: under a service's server span, each upstream call is one request span with
/// one client span per attempt, and the upstream receives one trace context, on AsyncHTTPClient,
/// with swift-distributed-tracing's in-memory tracer and with W3C `traceparent` propagation.
@Suite("Tracing end to end", .serialized)
struct TracingEndToEndTests {
    /// Calls the gateway's provider 20 times at once under one server span, with a token that
    /// must first be obtained, then once more after the upstream revoked it (a 401 and a refresh).
    private func run(with tracer: any Tracer) async throws -> (FakeUpstream.Stats, Int) {
        let upstream = FakeUpstream()
        let server = try await RunningServer.start(upstream.router())
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.configuration())
        let provider = GatewayProvider.make(
            upstream: server.baseURL, client: client, logger: Logger(label: "test"), tracer: tracer)
        let orders = try await tracer.withSpan("GET /orders", ofKind: .server) { _ in
            try await withThrowingTaskGroup(of: Order.self) { group in
                for id in 1...20 { group.addTask { try await provider.request(.order(id: id), as: Order.self) } }
                return try await group.reduce(into: [Order]()) { $0.append($1) }
            }
        }
        var revoke = HTTPClientRequest(url: "\(server.baseURL)/_rotate")
        revoke.method = .POST
        _ = try await client.execute(revoke, timeout: .seconds(5))
        let again = try await tracer.withSpan("GET /orders/7", ofKind: .server) { _ in
            try await provider.request(.order(id: 7), as: Order.self)
        }
        try await client.shutdown()
        await server.stop()
        #expect(orders.count == 20 && again == Order(id: 7, total: 700))
        return (upstream.stats, 21)
    }

    @Test("with the in-memory tracer: one trace context upstream, one client span per attempt")
    func inMemory() async throws {
        let tracer = InMemoryTracer()
        let (stats, calls) = try await run(with: tracer)

        #expect(stats.duplicateTraceContexts == 0)
        #expect(stats.traced == stats.orders)
        // 20 orders, the one after the revocation twice (401, then resent): 22 attempts.
        #expect(stats.orders == calls + 1)
        #expect(stats.tokens == 2)
        let spans = tracer.finishedSpans
        let clients = spans.filter { $0.kind == .client }
        let servers = spans.filter { $0.kind == .server }
        let requests = spans.filter { $0.kind == .internal }
        // A client span per attempt: the orders' attempts and the two token calls.
        #expect(clients.count == stats.orders + stats.tokens)
        #expect(servers.count == 2)
        // Every request span is in a server span's trace.
        let traces = Set(servers.map(\.context.inMemorySpanContext!.traceID))
        #expect(requests.allSatisfy { traces.contains($0.context.inMemorySpanContext!.traceID) })
    }

    @Test("with W3C traceparent propagation: one traceparent upstream, one client span per attempt")
    func w3c() async throws {
        let tracer = W3CTracer()
        let (stats, calls) = try await run(with: tracer)

        #expect(stats.duplicateTraceContexts == 0)
        #expect(stats.traced == stats.orders)
        #expect(stats.orders == calls + 1)
        #expect(tracer.count(of: .client) == stats.orders + stats.tokens)
        #expect(tracer.count(of: .server) == 2)
        let serverTraces = Set(tracer.finished.filter { $0.kind == .server }.map(\.context.traceID))
        #expect(tracer.finished.filter { $0.kind == .client }.allSatisfy { serverTraces.contains($0.context.traceID) })
    }
}
