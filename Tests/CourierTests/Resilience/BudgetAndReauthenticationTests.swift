import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The retry budget covers every retry a retrier asks for: an authentication interceptor's
/// re-send after a refresh too.
@Suite("RetryBudget and reauthentication")
struct BudgetAndReauthenticationTests {
    struct Token: AuthenticationCredential {
        let value: String
        var requiresRefresh: Bool { false }
    }

    struct Swapper: Authenticator {
        func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
            return request
        }
        func refresh(_ credential: Token) async throws -> Token { Token(value: "fresh") }
    }

    func run(_ budget: RetryBudget) async throws -> (Result<Response, CourierError>, Int, [RetryRefusal?]) {
        let server = try LoopbackServer { request in
            request.header("Authorization") == "Bearer fresh" ? .json("{}") : ServerReply(status: 401)
        }
        defer { server.stop() }
        let metrics = MetricsCatcher()
        let provider = Provider<OrderTarget>(
            plugins: [metrics],
            interceptor: AuthenticationInterceptor(authenticator: Swapper(), credential: Token(value: "stale")),
            options: ProviderOptions(resilience: ResiliencePolicy(retryBudget: budget)))
        let result = await provider.result(for: OrderTarget(baseURL: server.baseURL))
        return (result, server.requests.count, metrics.lastAttempts.map(\.retryRefusal))
    }

    @Test("a spent budget refuses the re-send: the caller gets the 401, and the attempt says why")
    func refused() async throws {
        let (result, sent, refusals) = try await run(RetryBudget(ratio: 0, minimumPerSecond: 0))
        #expect(result.status == 401)
        #expect(sent == 1)
        #expect(refusals == [.retryBudget])
    }

    @Test("a budget with room lets it through")
    func allowed() async throws {
        let (result, sent, refusals) = try await run(RetryBudget())
        #expect(result.status == 200)
        #expect(sent == 2)
        #expect(refusals == [nil, nil])
    }
}
