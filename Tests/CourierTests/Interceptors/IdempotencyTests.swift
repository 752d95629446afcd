import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Nothing sent twice that must not be: a `POST` is retried by neither the transport nor
/// `RetryPolicy`, unless the target gives it an idempotency key, which every attempt of the
/// request then carries.
@Suite("Idempotency")
struct IdempotencyTests {
    struct Payment: TargetType {
        var baseURL: URL
        var path: String { "/p" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestData(Data(#"{"amount":100}"#.utf8)) }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var idempotency: Idempotency
    }

    /// A server that answers `/p` with 503 the first time.
    static func busyOnce() throws -> LoopbackServer {
        let calls = Locked(0)
        return try LoopbackServer { _ in
            let count = calls.withLock { count in
                count += 1
                return count
            }
            return count == 1 ? ServerReply(status: 503) : ServerReply()
        }
    }

    @Test("a POST with an idempotency key is retried with the same key; another call gets another key")
    func keyedPostRetried() async throws {
        let server = try Self.busyOnce()
        let provider = Provider<Payment>(interceptor: .retryPolicy(exponentialBackoffScale: 0.01))
        let target = Payment(baseURL: server.baseURL, idempotency: .idempotencyKey())

        #expect(try await provider.request(target).statusCode == 200)
        #expect(try await provider.request(target).statusCode == 200)

        let keys = server.requests.map { $0.header("Idempotency-Key") }
        #expect(keys.count == 3)
        #expect(keys.allSatisfy { $0 != nil && UUID(uuidString: $0!) != nil })
        #expect(keys[0] == keys[1])
        #expect(keys[1] != keys[2])
    }

    @Test("a POST without a key is not retried by RetryPolicy; nor is a target that is never idempotent")
    func unkeyedNotRetried() async throws {
        for idempotency in [Idempotency.byMethod, .never] {
            let server = try Self.busyOnce()
            let provider = Provider<Payment>(interceptor: .retryPolicy(exponentialBackoffScale: 0.01))
            let error = await capture {
                try await provider.request(Payment(baseURL: server.baseURL, idempotency: idempotency))
            }
            #expect(error?.response?.statusCode == 503)
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.header("Idempotency-Key") == nil)
        }
    }

    @Test("a key the endpoint sets itself is kept")
    func ownKeyKept() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let provider = Provider<Payment>(
            endpointClosure: {
                Provider.defaultEndpointMapping(for: $0).adding(newHTTPHeaderFields: ["Idempotency-Key": "order-42"])
            })
        _ = try await provider.request(Payment(baseURL: server.baseURL, idempotency: .idempotencyKey()))
        #expect(server.requests.first?.header("Idempotency-Key") == "order-42")
    }

    @Test("a stale connection under a POST reaches the retrier as connectionLost, once on the wire, with a key resent")
    func staleConnection() async throws {
        for keyed in [false, true] {
            let server = try URLSessionTransportTests.closingOnce()
            let transport = URLSessionTransport()
            let metrics = Locked<[AttemptMetrics]>([])
            let provider = Provider<Payment>(
                transport: transport, plugins: [AttemptMetricsPlugin(metrics: metrics)],
                interceptor: .retryPolicy(exponentialBackoffScale: 0.01))
            // Warm the connection up, so that the POST goes on a kept-alive one.
            _ = try await transport.send(TransportRequest(urlRequest: URLRequest(url: server.baseURL)))

            let target = Payment(baseURL: server.baseURL, idempotency: keyed ? .idempotencyKey() : .byMethod)
            let result = await capture { try await provider.request(target) }

            let posts = server.requests.filter { $0.path == "/p" }
            if keyed {
                // The transport resent it (the key makes it safe), visibly, and it succeeded.
                #expect(result == nil)
                #expect(posts.count == 2)
                #expect(metrics.value.map(\.transportResends) == [1])
            } else {
                #expect((result?.underlyingError as? TransportFailure)?.kind == .connectionLost)
                #expect(posts.count == 1)
            }
        }
    }
}

/// Keeps each attempt's metrics.
struct AttemptMetricsPlugin: PluginType {
    let metrics: Locked<[AttemptMetrics]>

    func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        metrics.withLock { $0.append(outcome.metrics) }
    }
}
