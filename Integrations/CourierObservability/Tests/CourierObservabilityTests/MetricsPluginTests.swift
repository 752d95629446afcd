import CoreMetrics
import Courier
import CourierObservability
import CourierTesting
import Foundation
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MetricsPlugin")
struct MetricsPluginTests {
    @Test("a success: one request, one attempt, a duration, body sizes, labelled by bounded dimensions")
    func success() async throws {
        let server = try LoopbackServer { _ in .json(#"{"items":[]}"#) }
        let metrics = TestMetrics()
        let provider = Provider<ShopAPI>(plugins: [MetricsPlugin(factory: metrics)])

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 3)))

        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        let outcome = labels + [("http.response.status_class", "2xx")]
        #expect(try metrics.expectCounter("courier.client.requests", outcome).totalValue == 1)
        #expect(try metrics.expectCounter("courier.client.attempts", labels + [("outcome", "success")]).totalValue == 1)
        let duration = try metrics.expectTimer("courier.client.request.duration", outcome)
        #expect(duration.values.count == 1)
        #expect(duration.displayUnit == .seconds)
        let exchange = [
            ("http.request.method", "GET"), ("server.address", "127.0.0.1"),
            ("server.port", String(server.baseURL.port ?? 0)), ("courier.target", "ShopAPI"),
            ("http.response.status_code", "200"),
        ]
        #expect(try metrics.expectTimer("http.client.request.duration", exchange).values.count == 1)
        #expect(try metrics.expectRecorder("http.client.response.body.size", exchange).lastValue == 12)
        #expect(try metrics.expectRecorder("http.client.request.body.size", exchange).lastValue == 0)
        #expect(metrics.counterTotal(label: "courier.client.retries") == 0)
        Self.expectBounded(metrics)
    }

    @Test("a retried request: two attempts, one retry, one request; a refresh is counted when reported")
    func retriedAndRefreshed() async throws {
        let count = TestBox(0)
        let server = try LoopbackServer { _ in
            count.modify { $0 += 1 }
            return count.value == 1 ? ServerReply(status: 503) : .json("{}")
        }
        let metrics = TestMetrics()
        let plugin = MetricsPlugin(factory: metrics)
        let provider = Provider<ShopAPI>(
            plugins: [plugin], interceptor: Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry })

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        #expect(metrics.counterTotal(label: "courier.client.attempts") == 2)
        #expect(try metrics.expectCounter("courier.client.attempts", labels + [("outcome", "503")]).totalValue == 1)
        #expect(try metrics.expectCounter("courier.client.retries", labels).totalValue == 1)
        #expect(metrics.counterTotal(label: "courier.client.requests") == 1)
        #expect(metrics.counterTotal(label: "courier.client.reauthentications") == 0)
    }

    @Test("a redirect is one attempt of one request, with the final status")
    func redirect() async throws {
        let server = try LoopbackServer { request in
            request.path == "/items" ? ServerReply(status: 302, headers: ["Location": "/final"]) : .json("{}")
        }
        let metrics = TestMetrics()
        let provider = Provider<ShopAPI>(plugins: [MetricsPlugin(factory: metrics)])

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        #expect(metrics.counterTotal(label: "courier.client.attempts") == 1)
        #expect(
            try metrics.expectCounter("courier.client.requests", labels + [("http.response.status_class", "2xx")])
                .totalValue == 1)
        #expect(server.requests.count == 2)
    }

    @Test("failures are labelled by error.type; a cancellation as cancelled")
    func failures() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 404) }
        let metrics = TestMetrics()
        let provider = Provider<ShopAPI>(plugins: [MetricsPlugin(factory: metrics)])

        _ = try? await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        // A port that refuses for the whole test (a stopped server's may be taken meanwhile).
        let closed = try ClosedPort()
        _ = try? await provider.request(ShopAPI(baseURL: closed.baseURL, call: .items(page: 1)))
        let cancelled = Task { try await provider.request(ShopAPI(baseURL: closed.baseURL, call: .login)) }
        cancelled.cancel()
        _ = try? await cancelled.value

        let get = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        let rejected = get + [("http.response.status_class", "4xx"), ("error.type", "404")]
        #expect(try metrics.expectCounter("courier.client.requests", rejected).totalValue == 1)
        #expect(
            try metrics.expectCounter("courier.client.requests", get + [("error.type", "cannotConnect")]).totalValue
                == 1)
        let post = [("courier.target", "ShopAPI"), ("http.request.method", "POST"), ("error.type", "cancelled")]
        #expect(try metrics.expectCounter("courier.client.requests", post).totalValue == 1)
        Self.expectBounded(metrics)
    }

    @Test("an enum target is labelled by its case name, never its associated values")
    func caseNames() {
        #expect(RequestLabels.target(Catalog.product(id: 981_234)) == "Catalog.product")
        #expect(RequestLabels.target(MultiTarget(Catalog.search("secret query"))) == "Catalog.search")
        #expect(RequestLabels.method(HTTPMethod(rawValue: "PROPFIND")) == "_OTHER")
    }

    /// No dimension holds a URL, a query or the secret.
    static func expectBounded(_ metrics: TestMetrics) {
        let dimensions =
            metrics.counters.flatMap(\.dimensions) + metrics.timers.flatMap(\.dimensions)
            + metrics.recorders.flatMap(\.dimensions)
        for (name, value) in dimensions {
            #expect(!value.contains("/") && !value.contains(ShopAPI.secret), "unbounded \(name)=\(value)")
        }
    }
}
