import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryTracing
import Testing
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("TracingPlugin")
struct TracingPluginTests {
    private func provider(_ tracing: TracingPlugin, retries: Int = 1) -> Provider<ShopAPI> {
        Provider<ShopAPI>(
            plugins: [tracing],
            interceptor: Interceptor(interceptors: [
                tracing, Retrier { _, _, context in context.attempt < retries ? .retry : .doNotRetry },
            ]))
    }

    @Test("a success: an internal request span, a client attempt span under it, its traceparent on the wire")
    func success() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let tracer = W3CInMemoryTracer()
        _ = try await provider(TracingPlugin(tracer: tracer)).request(
            ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let spans = tracer.base.finishedSpans
        #expect(spans.count == 2)
        let attempt = try #require(spans.first { $0.kind == .client })
        let request = try #require(spans.first { $0.kind == .internal })
        #expect(request.operationName == "ShopAPI")
        #expect(attempt.operationName == "GET")
        #expect(attempt.parentSpanID == request.spanID)
        #expect(attempt.traceID == request.traceID)
        #expect(attempt.attributes.get("http.request.method") == "GET")
        #expect(attempt.attributes.get("server.address") == "127.0.0.1")
        #expect(attempt.attributes.get("server.port") == .int64(Int64(server.baseURL.port ?? 0)))
        #expect(attempt.attributes.get("http.response.status_code") == .int64(200))
        #expect(attempt.attributes.get("http.request.resend_count") == nil)
        #expect(request.status == nil)
        let header = try #require(server.requests.first?.header("traceparent"))
        #expect(Self.isValidTraceparent(header))
        #expect(header == "00-\(attempt.traceID)-\(attempt.spanID)-01")
        Self.expectNoSecret(spans)
    }

    @Test("a retried request: two attempt spans, the second with resend_count 1, each with its own traceparent")
    func retried() async throws {
        let count = TestBox(0)
        let server = try LoopbackServer { _ in
            count.modify { $0 += 1 }
            return count.value == 1 ? ServerReply(status: 503) : .json("{}")
        }
        let tracer = W3CInMemoryTracer()
        _ = try await provider(TracingPlugin(tracer: tracer), retries: 2).request(
            ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let attempts = tracer.base.finishedSpans.filter { $0.kind == .client }
        let request = try #require(tracer.base.finishedSpans.first { $0.kind == .internal })
        #expect(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.parentSpanID == request.spanID })
        #expect(attempts[0].attributes.get("error.type") == "503")
        #expect(attempts[0].status?.code == .error)
        #expect(attempts[1].attributes.get("http.request.resend_count") == .int64(1))
        #expect(attempts[1].status == nil)
        let headers = server.requests.compactMap { $0.header("traceparent") }
        #expect(headers == attempts.map { "00-\($0.traceID)-\($0.spanID)-01" })
    }

    @Test("a redirect is followed inside one attempt; both requests carry its context")
    func redirect() async throws {
        let server = try LoopbackServer { request in
            request.path == "/items" ? ServerReply(status: 302, headers: ["Location": "/final"]) : .json("{}")
        }
        let tracer = W3CInMemoryTracer()
        _ = try await provider(TracingPlugin(tracer: tracer)).request(
            ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let attempts = tracer.base.finishedSpans.filter { $0.kind == .client }
        #expect(attempts.count == 1)
        #expect(attempts.first?.attributes.get("http.response.status_code") == .int64(200))
        #expect(server.requests.count == 2)
        #expect(Set(server.requests.compactMap { $0.header("traceparent") }).count == 1)
    }

    @Test("a failure and a cancellation end every span with an error status and error.type")
    func failures() async throws {
        // A port that refuses for as long as the test runs (a stopped server's port may be taken
        // by another test's server meanwhile, which made this test fail once under load).
        let server = try ClosedPort()
        let tracer = W3CInMemoryTracer()
        let provider = provider(TracingPlugin(tracer: tracer))

        _ = try? await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        let failed = tracer.base.popFinishedSpans()
        #expect(failed.count == 2)
        #expect(failed.allSatisfy { $0.status?.code == .error && $0.attributes.get("error.type") == "cannotConnect" })

        let cancelled = Task { try await provider.request(ShopAPI(baseURL: server.baseURL, call: .login)) }
        cancelled.cancel()
        _ = try? await cancelled.value
        let spans = tracer.base.finishedSpans
        #expect(!spans.isEmpty)
        #expect(spans.allSatisfy { $0.attributes.get("error.type") == "cancelled" })
        #expect(tracer.base.activeSpans.isEmpty)
    }

    @Test("the request span is a child of the caller's current span")
    func callerContext() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let tracer = W3CInMemoryTracer()
        let provider = provider(TracingPlugin(tracer: tracer))

        try await tracer.withSpan("nightly job") { _ in
            _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        }

        let job = try #require(tracer.base.finishedSpans.first { $0.operationName == "nightly job" })
        let request = try #require(tracer.base.finishedSpans.first { $0.operationName == "ShopAPI" })
        #expect(request.parentSpanID == job.spanID)
        #expect(request.traceID == job.traceID)
    }

    @Test("with NoOpTracer, the tracer a program has until it bootstraps one, nothing is added to a request")
    func noOpTracer() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let tracing = TracingPlugin(tracer: NoOpTracer())

        _ = try await provider(tracing).request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        #expect(server.requests.count == 1)
        #expect(server.requests.first?.header("traceparent") == nil)
    }

    /// `00-<32 hex>-<16 hex>-<2 hex>`, neither id all zeros (W3C Trace Context, level 1).
    static func isValidTraceparent(_ value: String) -> Bool {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        let hex = { (part: Substring, count: Int) in part.count == count && part.allSatisfy(\.isHexDigit) }
        return parts.count == 4 && parts[0] == "00" && hex(parts[1], 32) && hex(parts[2], 16) && hex(parts[3], 2)
            && parts[1].contains { $0 != "0" } && parts[2].contains { $0 != "0" }
    }

    /// No span attribute holds the secret of ShopAPI's URL and headers.
    static func expectNoSecret(_ spans: [FinishedInMemorySpan]) {
        for span in spans {
            #expect(!"\(span.attributes)".contains(ShopAPI.secret))
            #expect(!"\(span.attributes)".contains(ShopAPI.nestedSecret))
        }
    }
}
