import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Testing
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A token the server rejects, refreshed through the same provider: all three plugins at once.
@Suite("Observability of a refresh")
struct RefreshScenarioTests {
    struct Session: AuthenticationCredential {
        let token: String
        var requiresRefresh: Bool { false }
    }

    struct SessionAuthenticator: Authenticator {
        let baseURL: URL

        func apply(_ credential: Session, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
            return request
        }

        func refresh(_ credential: Session, context: RefreshContext) async throws -> Session {
            let response = try await context.send(ShopAPI(baseURL: baseURL, call: .login))
            return Session(token: try response.mapString(atKeyPath: "token"))
        }
    }

    @Test("the rejected attempt, the refresh call and the retry are each recorded once; no token anywhere")
    func refresh() async throws {
        let server = try LoopbackServer { request in
            if request.path == "/login" { return .json(#"{"token":"fresh-token-77"}"#) }
            return request.header("Authorization") == "Bearer fresh-token-77" ? .json("{}") : ServerReply(status: 401)
        }
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "shop") { _ in logs }
        logger.logLevel = .debug
        let metrics = TestMetrics()
        let metricsPlugin = MetricsPlugin(factory: metrics)
        let tracer = W3CInMemoryTracer()
        let tracing = TracingPlugin(tracer: tracer)
        let auth = AuthenticationInterceptor(
            authenticator: SessionAuthenticator(baseURL: server.baseURL), credential: Session(token: "stale-token-13"),
            onRefreshFailure: { _, _ in })
        let provider = Provider<ShopAPI>(
            plugins: [LoggingPlugin(logger: logger), metricsPlugin, tracing],
            interceptor: Interceptor(interceptors: [tracing, auth]))

        _ = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))

        let results = logs.entries.filter { $0.message.description.hasPrefix("request ") }
        #expect(results.map(\.message.description) == ["request succeeded", "request succeeded"])
        #expect(results.map { $0.metadata["http.request.method"] } == ["POST", "GET"])
        #expect(results.last?.metadata["courier.attempts"] == "2")
        #expect(logs.entries.filter { $0.message.description == "attempt failed" }.count == 1)

        #expect(metrics.counterTotal(label: "courier.client.requests") == 2)
        // The resend after the refresh is a reauthentication, not a failure retried; the refresh is
        // counted by the plugin itself, with nothing wired into onRefresh.
        #expect(metrics.counterTotal(label: "courier.client.retries") == 0)
        #expect(metrics.counterTotal(label: "courier.client.reauthentications") == 1)
        let refresh = [("courier.target", "ShopAPI"), ("courier.refresh.kind", "refresh"), ("outcome", "success")]
        #expect(try metrics.expectCounter("courier.client.refreshes", refresh).totalValue == 1)

        #expect(tracer.base.finishedSpans.filter { $0.kind == .internal }.count == 2)
        #expect(tracer.base.finishedSpans.filter { $0.kind == .client }.count == 3)
        #expect(server.requests.allSatisfy { $0.header("traceparent") != nil })

        for entry in logs.entries {
            let text = "\(entry.message) \(entry.metadata)"
            for secret in [ShopAPI.secret, "fresh-token-77", "stale-token-13"] {
                #expect(!text.contains(secret), "secret in \(text)")
            }
        }
        for span in tracer.base.finishedSpans {
            #expect(!"\(span.attributes)".contains("token-"))
        }
    }
}
