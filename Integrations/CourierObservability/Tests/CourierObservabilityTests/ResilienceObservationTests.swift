import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the logging and metrics plugins say about a resilience policy: the breaker opening, its
/// refusals, a retry the budget refused.
@Suite("Resilience in the logs and metrics")
struct ResilienceObservationTests {
    let clock = TestClock()
    let target = ShopAPI(baseURL: URL(string: "https://shop.test")!, call: .items(page: 1))
    /// A breaker that opens on the first failure, and no retry budget at all.
    let policy = ResiliencePolicy(
        retryBudget: RetryBudget(ratio: 0, minimumPerSecond: 0),
        circuitBreaker: CircuitBreaker(minimumThroughput: 1, consecutiveFailures: 1))

    func provider(_ plugins: [any PluginType]) -> Provider<ShopAPI> {
        Provider<ShopAPI>(
            transport: FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)]), plugins: plugins,
            interceptor: .retryPolicy, options: ProviderOptions(resilience: policy, clock: clock))
    }

    @Test("metrics: the transition to open, the refused attempt by its reason, the retry the budget refused")
    func metrics() async {
        let metrics = TestMetrics()
        let provider = provider([MetricsPlugin(factory: metrics)])
        _ = await provider.result(for: target)
        _ = await provider.result(for: target)

        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        #expect(
            (try? metrics.expectCounter(
                "courier.client.circuit.transitions", [("courier.target", "ShopAPI"), ("courier.circuit.to", "open")]
            ).totalValue) == 1)
        #expect(
            (try? metrics.expectCounter("courier.client.attempts", labels + [("outcome", "circuitOpen")]).totalValue)
                == 1)
        #expect(
            (try? metrics.expectCounter("courier.client.retry.refusals", labels + [("courier.refusal", "retryBudget")])
                .totalValue) == 1)
    }

    @Test("logs: the breaker opening at warning with its scope; the refusal's error type")
    func logs() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "shop") { _ in handler }
        logger.logLevel = .debug
        let provider = provider([LoggingPlugin(logger: logger)])
        _ = await provider.result(for: target)
        _ = await provider.result(for: target)

        let opened = try #require(handler.entries.first { $0.message.description == "circuit opened" })
        #expect(opened.level == .warning)
        #expect(opened.metadata["courier.circuit.scope"] == "https://shop.test")
        #expect(opened.metadata["courier.circuit.from"] == "closed")
        let refused = handler.entries.last { $0.message.description == "request failed" }
        #expect(refused?.metadata["error.type"] == "circuitOpen")
    }

    @Test("a spent rate limit the server announced: the 403 counted as such, the calls it holds as rateLimitExhausted")
    func spentRateLimit() async throws {
        let metrics = TestMetrics()
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "shop") { _ in handler }
        logger.logLevel = .debug
        let transport = ScriptedTransport(fallback: .status(200))
        let reset = Int(clock.date().timeIntervalSince1970) + 600
        transport.enqueue(
            [.status(403, headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)"])], for: target)
        let provider = Provider<ShopAPI>(
            transport: transport, plugins: [MetricsPlugin(factory: metrics), LoggingPlugin(logger: logger)],
            interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard, clock: clock))

        for _ in 0..<3 { _ = await provider.result(for: target) }

        #expect(transport.requests.count == 1)
        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        #expect(
            (try? metrics.expectCounter("courier.client.attempts", labels + [("outcome", "rateLimitExhausted")])
                .totalValue) == 2)
        let outcomes = handler.entries.filter { $0.message.description.hasPrefix("request ") }
            .map { "\($0.message) \($0.metadata["error.type"]?.description ?? "-")" }
        #expect(
            outcomes == [
                "request rejected 403", "request failed rateLimitExhausted", "request failed rateLimitExhausted",
            ])
    }
}
