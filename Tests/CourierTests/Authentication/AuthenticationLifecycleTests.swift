import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side of a refresh: it stores each new credential, clears the credential when a
/// refresh fails, and an expiry date is enough for a credential to be refreshed ahead of time.
@Suite("Authentication lifecycle")
struct AuthenticationLifecycleTests {
    /// Tokens that know when they expire, and nothing else about refreshing.
    struct ExpiringTokens: AuthenticationCredential, Equatable {
        var access: String
        var expiresAt: Date?
        var leeway: TimeInterval = 60
        var expiration: Date? { expiresAt }
        var refreshLeeway: TimeInterval { leeway }
    }

    @Test("the default requiresRefresh: within the leeway of the expiration, never without one")
    func expiryRule() {
        let now = Date()
        #expect(ExpiringTokens(access: "a", expiresAt: now.addingTimeInterval(30)).requiresRefresh)
        #expect(!ExpiringTokens(access: "a", expiresAt: now.addingTimeInterval(600)).requiresRefresh)
        #expect(ExpiringTokens(access: "a", expiresAt: now.addingTimeInterval(-1)).requiresRefresh)
        #expect(!ExpiringTokens(access: "a", expiresAt: now.addingTimeInterval(30), leeway: 10).requiresRefresh)
        #expect(!ExpiringTokens(access: "a", expiresAt: nil).requiresRefresh)
    }

    /// Refreshes to a fresh token after recording the credential it got, or fails.
    struct Refresher: Authenticator {
        let fails: Bool
        func apply(_ credential: ExpiringTokens, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.access)", forHTTPHeaderField: "Authorization")
            return request
        }
        func refresh(_ credential: ExpiringTokens) async throws -> ExpiringTokens {
            if fails { throw URLError(.userAuthenticationRequired) }
            return ExpiringTokens(access: "fresh", expiresAt: Date().addingTimeInterval(3600))
        }
    }

    @Test("an expiring credential is refreshed before sending; onRefresh stores it before the request goes on")
    func storedBeforeUse() async throws {
        let events = CallRecorder()
        let stored = Locked<[String]>([])
        let interceptor = AuthenticationInterceptor(
            authenticator: Refresher(fails: false),
            credential: ExpiringTokens(access: "old", expiresAt: Date().addingTimeInterval(5)),
            onRefresh: { tokens, interceptor in
                stored.withLock { $0.append("\(tokens.access) current=\(interceptor.credential?.access ?? "-")") }
                events.record(.prepare("store"))
            })
        let transport = RecordingTransport(ScriptedTransport(fallback: .status(200)), recorder: events)
        let provider = Provider<TokenAPI>(transport: transport, interceptor: interceptor)

        _ = try await provider.request(TokenAPI(baseURL: URL(string: "http://127.0.0.1:9")!, path: "/data/1"))

        #expect(stored.value == ["fresh current=fresh"])
        #expect(events.events == [.prepare("store"), .send])
    }

    @Test("onRefreshFailure gets the interceptor: it clears the credential, and the next request fails at once")
    func failureClears() async throws {
        let failures = Locked(0)
        let interceptor = AuthenticationInterceptor(
            authenticator: Refresher(fails: true),
            credential: ExpiringTokens(access: "old", expiresAt: Date().addingTimeInterval(5)),
            onRefreshFailure: { _, interceptor in
                failures.withLock { $0 += 1 }
                interceptor.credential = nil
            })
        let provider = Provider<TokenAPI>(
            transport: ScriptedTransport(fallback: .status(200)), interceptor: interceptor)
        let target = TokenAPI(baseURL: URL(string: "http://127.0.0.1:9")!, path: "/data/1")

        let first = await capture { try await provider.request(target) }
        let second = await capture { try await provider.request(target) }

        guard case .adaptation(let firstError, _)? = first, (firstError as? AuthenticationError)?.code == .refreshFailed
        else {
            Issue.record("expected adaptation(refreshFailed), got \(String(describing: first))")
            return
        }
        #expect(failures.value == 1)
        #expect(interceptor.credential == nil)
        guard case .adaptation(let secondError, _)? = second else {
            Issue.record("expected adaptation(missingCredential), got \(String(describing: second))")
            return
        }
        #expect((secondError as? AuthenticationError)?.isMissingCredential == true)
    }
}
