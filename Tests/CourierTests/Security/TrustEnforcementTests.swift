import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A trust policy is never silently skipped: a request whose policy applies to its host reaches
/// only an engine that enforces it (each redirect hop checked), never goes in plain HTTP to a
/// pinned host, is not retried, and does not open a circuit breaker.
@Suite("Trust policy enforcement")
struct TrustEnforcementTests {
    private struct Pinned: TargetType {
        var baseURL: URL
        var path = "/account"
        var trustPolicy: TrustPolicy?
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { ["Authorization": "Bearer secret"] }
        var validationType: ValidationType { .successCodes }
    }

    private static func pinning(_ host: String) throws -> TrustPolicy {
        var policy = TrustPolicy()
        try policy.pin(host, to: [TrustPolicyTests.abc, TrustPolicyTests.backup])
        return policy
    }

    private static func retries() -> RetryPolicy {
        RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none)
    }

    @Test("URLSession cannot enforce a policy: the request fails unsent, once, with why")
    func notEnforceable() async throws {
        let server = try LoopbackServer { _ in .text("account") }
        defer { server.stop() }
        let url = URL(string: "https://127.0.0.1:\(server.port)")!
        let hooks = CallRecorder()
        let provider = Provider<Pinned>(
            plugins: [RecordingPlugin("P", recorder: hooks, observesAttempts: true)], interceptor: Self.retries())
        let error = await #expect(throws: CourierError.self) {
            try await provider.request(Pinned(baseURL: url, trustPolicy: try Self.pinning("127.0.0.1")))
        }
        guard case .notEnforceable(let host, let reason)? = error?.underlyingError as? TrustFailure else {
            Issue.record("not a refusal: \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1")
        #expect(reason.contains("TransportCapabilities.trustPolicy"))
        #expect(reason.contains("AsyncHTTPClientTransport"))
        #expect(server.requests.isEmpty)
        #expect(hooks.events.filter { $0.description.contains("willTransmit") }.count == 1)
    }

    @Test("a provider's policy with a private root applies to every HTTPS host; a stub is never refused")
    func providerPolicyAndStubs() async throws {
        let policy = TrustPolicy(roots: .systemAnd([Data("-----BEGIN CERTIFICATE-----".utf8)]))
        let provider = Provider<Pinned>(options: ProviderOptions(trust: policy))
        let error = await #expect(throws: CourierError.self) {
            try await provider.request(Pinned(baseURL: URL(string: "https://127.0.0.1:9")!))
        }
        #expect(error?.underlyingError is TrustFailure)
        let stubbed = Provider<Pinned>(stubClosure: Provider.immediatelyStub, options: ProviderOptions(trust: policy))
        #expect(try await stubbed.request(Pinned(baseURL: URL(string: "https://127.0.0.1:9")!)).statusCode == 200)
    }

    @Test("plain HTTP to a pinned host is refused unsent; to a host without pins it goes")
    func cleartext() async throws {
        let server = try LoopbackServer { _ in .text("account") }
        defer { server.stop() }
        let provider = Provider<Pinned>()
        let error = await #expect(throws: CourierError.self) {
            try await provider.request(Pinned(baseURL: server.baseURL, trustPolicy: try Self.pinning("127.0.0.1")))
        }
        #expect(error?.underlyingError as? TrustFailure == .cleartext(host: "127.0.0.1"))
        // A wrapped target keeps its policy.
        let wrapped = MultiTarget(Pinned(baseURL: server.baseURL, trustPolicy: try Self.pinning("127.0.0.1")))
        let refused = await #expect(throws: CourierError.self) { try await Provider<MultiTarget>().request(wrapped) }
        #expect(refused?.underlyingError as? TrustFailure == .cleartext(host: "127.0.0.1"))
        #expect(server.requests.isEmpty)
        let other = Pinned(baseURL: server.baseURL, trustPolicy: try Self.pinning("**.bank.example"))
        #expect(try await provider.request(other).mapString() == "account")
    }

    @Test("a redirect to a pinned host is checked at the hop: refused before it is sent")
    func redirectHop() async throws {
        let server = try LoopbackServer { request in
            request.path == "/account"
                ? ServerReply(status: 302, headers: ["Location": "https://localhost:1/account"]) : .text("?")
        }
        defer { server.stop() }
        let error = await #expect(throws: CourierError.self) {
            try await Provider<Pinned>().request(
                Pinned(baseURL: server.baseURL, trustPolicy: try Self.pinning("localhost")))
        }
        guard case .notEnforceable(let host, _)? = error?.underlyingError as? TrustFailure else {
            Issue.record("not a refusal at the hop: \(String(describing: error))")
            return
        }
        #expect(host == "localhost")
        #expect(server.requests.count == 1)
    }

    @Test("trust failures do not open a circuit breaker")
    func breakerUntouched() async throws {
        let server = try LoopbackServer { _ in .text("account") }
        defer { server.stop() }
        let breaker = ResiliencePolicy(circuitBreaker: CircuitBreaker(minimumThroughput: 1000, consecutiveFailures: 2))
        let provider = Provider<Pinned>(options: ProviderOptions(resilience: breaker))
        let pinned = Pinned(baseURL: server.baseURL, trustPolicy: try Self.pinning("127.0.0.1"))
        for _ in 0..<4 {
            await #expect(throws: CourierError.self) { try await provider.request(pinned) }
        }
        #expect(try await provider.request(Pinned(baseURL: server.baseURL)).mapString() == "account")
    }
}
