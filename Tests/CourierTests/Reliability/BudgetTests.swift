import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `totalTimeoutInterval` as a budget for the whole call: retries that could not finish in the
/// time left are not started, and a refresh waited for in `adapt` counts too.
@Suite("Budgets")
struct BudgetTests {
    struct Budgeted: TargetType {
        let baseURL: URL
        var path: String { "/slow" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var timeoutInterval: TimeInterval? { 0.3 }
        var totalTimeoutInterval: TimeInterval? { 1 }
    }

    @Test("a timed-out attempt is not retried into a budget shorter than it took; the call ends within the budget")
    func timeoutNotRetriedIntoTooLittle() async throws {
        let server = try LoopbackServer { _ in .raw([.pause(5)]) }
        let attempts = Locked(0)
        let provider = Provider<Budgeted>(
            transport: URLSessionTransport(),
            interceptor: Interceptor(
                adapters: [
                    Adapter { request, _ in
                        attempts.withLock { $0 += 1 }
                        return request
                    }
                ],
                retriers: [RetryPolicy(exponentialBackoffScale: 0.05, jitter: .none)]))
        let error = await capture { try await provider.request(Budgeted(baseURL: server.baseURL)) }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        // Attempt 1 times out at 0.3 s, 0.65 s are left after the backoff: a retry. Attempt 2
        // times out at 0.65 s, 0.25 s would be left after the next backoff, less than an attempt
        // took: no third attempt, which would only have run into the budget's end. (A loaded
        // machine makes attempts longer, so fewer fit; never more.) Unbounded, RetryPolicy makes
        // three.
        #expect((1...2).contains(attempts.value), "\(attempts.value) attempts")
    }

    @Test("a refresh waited for in adapt counts against the budget")
    func refreshWithinBudget() async throws {
        struct Token: AuthenticationCredential {
            var requiresRefresh: Bool { true }
        }
        struct SlowRefresh: Authenticator {
            func apply(_ credential: Token, to request: URLRequest) -> URLRequest { request }
            func refresh(_ credential: Token) async throws -> Token {
                try await Task.sleep(nanoseconds: 10_000_000_000)
                return credential
            }
        }
        let server = try LoopbackServer { _ in .json("{}") }
        let provider = Provider<Budgeted>(
            interceptor: AuthenticationInterceptor(authenticator: SlowRefresh(), credential: Token()))
        let start = Date()
        let error = await capture { try await provider.request(Budgeted(baseURL: server.baseURL)) }
        let elapsed = Date().timeIntervalSince(start)
        #expect(error?.stage == .adapting)
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        // The refresh would take 10 s; the 1 s budget ends the call (a loaded machine's timer may
        // fire late, never early).
        #expect(elapsed >= 1 && elapsed < 9, "took \(elapsed) s")
        #expect(server.requests.isEmpty)
    }
}
