import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 10,000 concurrent requests through plugins, the authentication interceptor and
/// `trackInflights`. CI also runs this suite under ThreadSanitizer
/// (`swift test --sanitize=thread --filter ConcurrencyStress`), which must report nothing.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    /// An in-memory API: answers 401 to any token but the current one, which it replaces every
    /// 50 requests it serves; `/refresh` issues the current one.
    final class RotatingTokenTransport: Transport {
        private struct State {
            var token = 0
            var served = 0
        }
        private let state = Locked(State())

        /// How many times the token was replaced.
        var rotations: Int { state.withLock { $0.token } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let url = request.urlRequest.url!
            let (status, body): (Int, String) = state.withLock { state in
                if url.path == "/refresh" { return (200, "t\(state.token)") }
                state.served += 1
                if state.served % 50 == 0 { state.token += 1 }
                let ok = request.urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t\(state.token)"
                return ok ? (200, "{}") : (401, "")
            }
            return TransportResponse(
                response: HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: [:])!,
                data: Data(body.utf8))
        }
    }

    struct Token: AuthenticationCredential {
        let value: String
        var requiresRefresh: Bool { false }
    }

    final class RefreshingAuthenticator: Authenticator {
        let provider = Locked<Provider<StressTarget>?>(nil)
        let refreshes = Locked(0)

        func apply(_ credential: Token, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
            return request
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            let provider = self.provider.withLock { $0 }!
            return Token(value: try await provider.request(StressTarget(path: "/refresh")).mapString())
        }

        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            request.url?.path != "/refresh"
        }
    }

    struct StressTarget: TargetType {
        var path: String
        var baseURL: URL { URL(string: "https://stress.invalid")! }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test("10,000 concurrent requests: all succeed, activity balanced, at most one refresh per rotation")
    func stress() async throws {
        let authenticator = RefreshingAuthenticator()
        let activity = Locked((began: 0, ended: 0))
        let metrics = Locked(0)
        let transport = RotatingTokenTransport()
        let provider = Provider<StressTarget>(
            transport: transport,
            plugins: [
                NetworkLoggerPlugin(configuration: .init(output: { _, _ in })),
                NetworkActivityPlugin { change, _ in
                    activity.withLock { counts in
                        if change == .began { counts.began += 1 } else { counts.ended += 1 }
                    }
                },
                NetworkMetricsPlugin { _, _, _ in metrics.withLock { $0 += 1 } },
                RecordingPlugin("recorder", recorder: CallRecorder()),
            ],
            interceptor: Interceptor(interceptors: [
                AuthenticationInterceptor(
                    authenticator: authenticator, credential: Token(value: "t0"),
                    refreshWindow: RefreshWindow(interval: 60, maximumAttempts: 50)),
                RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001),
            ]),
            trackInflights: true)
        authenticator.provider.withLock { $0 = provider }

        let count = 10_000
        let successes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask { (try? await provider.request(StressTarget(path: "/items/\(index % 100)"))) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }

        #expect(successes == count)
        let (began, ended) = activity.value
        #expect(began == ended)
        #expect(began == metrics.value)
        let refreshes = authenticator.refreshes.value
        #expect(transport.rotations >= 1)
        #expect(
            refreshes >= 1 && refreshes <= transport.rotations + 1,
            "\(refreshes) refreshes, \(transport.rotations) rotations")
    }
}
