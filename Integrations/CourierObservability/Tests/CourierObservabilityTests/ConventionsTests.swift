import CoreMetrics
import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// OpenTelemetry's HTTP client conventions, checked on the in-memory backends of
/// swift-distributed-tracing and swift-metrics: names, attributes and resend counts.
@Suite("OpenTelemetry HTTP client conventions")
struct ConventionsTests {
    /// A server that answers 503 to the first request and 200 after.
    private static func flakyServer() throws -> LoopbackServer {
        let count = TestBox(0)
        return try LoopbackServer { _ in
            count.modify { $0 += 1 }
            return count.value == 1 ? ServerReply(status: 503) : .json(#"{"ok":true}"#)
        }
    }

    @Test("a retried request: two client spans and two duration records, the resend counted, the reason kept")
    func retried() async throws {
        let server = try Self.flakyServer()
        let tracer = W3CInMemoryTracer()
        let metrics = TestMetrics()
        let tracing = TracingPlugin(tracer: tracer)
        let provider = Provider<ShopAPI>(
            plugins: [tracing, MetricsPlugin(factory: metrics)],
            interceptor: Interceptor(interceptors: [
                tracing, Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry },
            ]))

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let port = server.baseURL.port ?? 0
        let attempts = tracer.base.finishedSpans.filter { $0.kind == .client }
        #expect(attempts.map(\.operationName) == ["GET", "GET"])
        let (first, second) = (attempts[0], attempts[1])
        for span in attempts {
            #expect(span.attributes.get("http.request.method") == "GET")
            #expect(span.attributes.get("server.address") == "127.0.0.1")
            #expect(span.attributes.get("server.port") == .int64(Int64(port)))
            guard case .string(let url)? = span.attributes.get("url.full") else {
                Issue.record("no url.full")
                continue
            }
            #expect(url.hasPrefix("http://127.0.0.1:\(port)/items?"))
            #expect(!url.contains(ShopAPI.secret))
        }
        #expect(first.attributes.get("http.response.status_code") == .int64(503))
        #expect(first.attributes.get("error.type") == "503")
        #expect(first.attributes.get("http.request.resend_count") == nil)
        #expect(first.attributes.get("courier.retry.reason") == nil)
        #expect(first.status?.code == .error)
        #expect(second.attributes.get("http.response.status_code") == .int64(200))
        #expect(second.attributes.get("error.type") == nil)
        #expect(second.attributes.get("http.request.resend_count") == .int64(1))
        #expect(second.attributes.get("courier.retry.reason") == "failure")
        #expect(second.status == nil)
        let request = try #require(tracer.base.finishedSpans.first { $0.kind == .internal })
        #expect(request.attributes.get("courier.target") == "ShopAPI")

        let server503 = Self.exchange(port) + [("http.response.status_code", "503"), ("error.type", "503")]
        let server200 = Self.exchange(port) + [("http.response.status_code", "200")]
        let failed = try metrics.expectTimer("http.client.request.duration", server503)
        #expect(failed.values.count == 1)
        #expect(failed.displayUnit == .seconds)
        #expect(try metrics.expectTimer("http.client.request.duration", server200).values.count == 1)
        #expect(try metrics.expectRecorder("http.client.response.body.size", server200).lastValue == 11)
        let active = try metrics.expectMeter("http.client.active_requests", Array(Self.exchange(port).prefix(3)))
        #expect(active.values == [1, 0, 1, 0])
    }

    @Test("a cancelled request leaves no active request counted")
    func cancelledIsNotActive() async throws {
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let metrics = TestMetrics()
        let provider = Provider<ShopAPI>(transport: HangingEngine(arrival), plugins: [MetricsPlugin(factory: metrics)])
        let task = Task {
            try await provider.request(ShopAPI(baseURL: URL(string: "https://api.example:8443")!, call: .login))
        }
        var iterator = arrived.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        await #expect(throws: CourierError.self) { try await task.value }

        let labels = [("http.request.method", "POST"), ("server.address", "api.example"), ("server.port", "8443")]
        let active = try metrics.expectMeter("http.client.active_requests", labels)
        #expect(active.values == [1, 0])
    }

    @Test("the protocol version an engine reports is network.protocol.version on the span and the duration")
    func protocolVersion() async throws {
        let tracer = W3CInMemoryTracer()
        let metrics = TestMetrics()
        let tracing = TracingPlugin(tracer: tracer)
        let provider = Provider<ShopAPI>(
            transport: VersionedEngine(), plugins: [tracing, MetricsPlugin(factory: metrics)], interceptor: tracing)

        _ = try await provider.request(ShopAPI(baseURL: URL(string: "https://api.example:8443")!, call: .login))

        let attempt = try #require(tracer.base.finishedSpans.first { $0.kind == .client })
        #expect(attempt.attributes.get("network.protocol.version") == "2")
        #expect(attempt.attributes.get("server.port") == .int64(8443))
        let labels = [
            ("http.request.method", "POST"), ("server.address", "api.example"), ("server.port", "8443"),
            ("courier.target", "ShopAPI"), ("network.protocol.version", "2"), ("http.response.status_code", "200"),
        ]
        #expect(try metrics.expectTimer("http.client.request.duration", labels).values.count == 1)
    }

    @Test("a method outside RFC 9110's is _OTHER, with the method sent as http.request.method_original")
    func otherMethod() async throws {
        let tracer = W3CInMemoryTracer()
        let tracing = TracingPlugin(tracer: tracer)
        let provider = Provider<Purge>(stubClosure: Provider.immediatelyStub, plugins: [tracing], interceptor: tracing)

        _ = try await provider.request(Purge())

        let attempt = try #require(tracer.base.finishedSpans.first { $0.kind == .client })
        #expect(attempt.operationName == "_OTHER")
        #expect(attempt.attributes.get("http.request.method") == "_OTHER")
        #expect(attempt.attributes.get("http.request.method_original") == "PURGE")
    }

    /// The per-attempt dimensions before the outcome's.
    private static func exchange(_ port: Int) -> [(String, String)] {
        [
            ("http.request.method", "GET"), ("server.address", "127.0.0.1"), ("server.port", String(port)),
            ("courier.target", "ShopAPI"),
        ]
    }
}

/// An engine that answers 200 over HTTP/2, as AsyncHTTPClient reports it.
private struct VersionedEngine: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var response = TransportResponse(
            statusCode: 200, headerFields: HeaderFields(), url: request.urlRequest.url!, data: Data("{}".utf8))
        response.protocolVersion = "2"
        return response
    }
}

/// An engine that tells when a request arrived, then waits until it is cancelled.
private struct HangingEngine: Transport {
    let arrival: AsyncStream<Void>.Continuation

    init(_ arrival: AsyncStream<Void>.Continuation) {
        self.arrival = arrival
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        arrival.yield()
        try await Task.sleep(for: .seconds(600))
        throw CancellationError()
    }
}

/// A target with a method outside RFC 9110's.
private struct Purge: TargetType {
    var baseURL: URL { URL(string: "https://cdn.example")! }
    var path: String { "/assets" }
    var method: HTTPMethod { HTTPMethod(rawValue: "PURGE") }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}
