import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The scenarios of the documents this project grew from, written as a user would, with the
/// public API only.
@Suite("Authentication scenarios")
struct AuthenticationScenarioTests {
    /// The app's token storage.
    actor TokenStore {
        var access: String?
        var refresh: String?
        init(access: String?, refresh: String?) {
            self.access = access
            self.refresh = refresh
        }
        func store(access: String, refresh: String) {
            self.access = access
            self.refresh = refresh
        }
        func clear() {
            access = nil
            refresh = nil
        }
    }

    /// (a) An adapter adds `Authorization: Bearer …`; a retrier, on 401, trades the refresh token
    /// for a new access token, stores it and retries, or clears both tokens and gives up.
    private func handWrittenProvider(_ server: TokenServer, store: TokenStore) -> Provider<TokenAPI> {
        let authProvider = Provider<TokenAPI>()  // no interceptor: the refresh call cannot wait on itself
        let adapter = Adapter { request, _ in
            var request = request
            if let token = await store.access {
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            }
            return request
        }
        let retrier = Retrier { _, error, context in
            guard error.response?.statusCode == 401, context.attempt == 1, let refresh = await store.refresh else {
                return .doNotRetry
            }
            do {
                let pair = try await authProvider.request(.refresh(server, token: refresh), as: TokenPair.self)
                await store.store(access: pair.access, refresh: pair.refresh)
                return .retry
            } catch {
                await store.clear()
                return .doNotRetry
            }
        }
        return Provider<TokenAPI>(interceptor: Interceptor(adapters: [adapter], retriers: [retrier]))
    }

    @Test("(a) adapter + refreshing retrier: refresh, store, retry")
    func handWrittenRefresh() async throws {
        let server = try TokenServer(validToken: "t-new")
        let store = TokenStore(access: "t1", refresh: "r1")
        let provider = handWrittenProvider(server, store: store)

        let response = try await provider.request(.data(server))

        #expect(response.statusCode == 200)
        #expect(await store.access == "t2")
        #expect(await store.refresh == "r2")
        #expect(server.dataRequests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
    }

    @Test("(a) adapter + refreshing retrier: a failed refresh clears both tokens and does not retry")
    func handWrittenRefreshFails() async throws {
        let server = try TokenServer(validToken: "t-new")
        server.failRefreshes()
        let store = TokenStore(access: "t1", refresh: "r1")
        let provider = handWrittenProvider(server, store: store)

        let error = await capture { try await provider.request(.data(server)) }

        #expect(error?.response?.statusCode == 401)
        #expect(await store.access == nil)
        #expect(await store.refresh == nil)
        #expect(server.dataRequests.count == 1)
    }

    /// (b) Several headers, only for requests under the API's base URL; the API says "expired"
    /// with 419.
    struct PartnerAuthenticator: Authenticator {
        let apiBase: URL
        let server: TokenServer
        let refreshes: CallRecorder

        var authenticationFailureStatusCodes: Set<Int> { [419] }

        func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.access)", forHTTPHeaderField: "Authorization")
            request.setValue("courier-tests", forHTTPHeaderField: "X-Client-ID")
            request.setValue("2026-11", forHTTPHeaderField: "X-API-Version")
            return request
        }

        func refresh(_ credential: TokenPair) async throws -> TokenPair {
            refreshes.record(.send)
            return try await Provider<TokenAPI>().request(
                .refresh(server, token: credential.refresh), as: TokenPair.self)
        }

        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            request.url?.absoluteString.hasPrefix(apiBase.absoluteString) == true && request.url?.path != "/refresh"
        }
    }

    @Test("(b) headers only under one base URL; a custom 419 triggers refresh and retry")
    func scopedHeadersWith419() async throws {
        let api = try TokenServer(validToken: "t-new", rejectionStatus: 419)
        let other = try LoopbackServer { _ in .json("{}") }
        let refreshes = CallRecorder()
        let interceptor = AuthenticationInterceptor(
            authenticator: PartnerAuthenticator(apiBase: api.baseURL, server: api, refreshes: refreshes),
            credential: TokenPair(access: "t1", refresh: "r1"))
        let provider = Provider<TokenAPI>(interceptor: interceptor)

        let response = try await provider.request(.data(api))
        _ = try await provider.request(TokenAPI(baseURL: other.baseURL, path: "/public"))

        #expect(response.statusCode == 200)
        #expect(refreshes.events.count == 1)
        let sent = api.dataRequests
        #expect(sent.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
        #expect(
            sent.allSatisfy { $0.header("X-Client-ID") == "courier-tests" && $0.header("X-API-Version") == "2026-11" })
        let untouched = try #require(other.requests.first)
        #expect(untouched.header("Authorization") == nil && untouched.header("X-Client-ID") == nil)
    }

    /// (c) An ordered chain: a max-retry step, a token/header step, and request/response logging.
    @Test("(c) max-retry, token and logging steps run in their order")
    func orderedChain() async throws {
        let calls = CallRecorder()
        let server = try LoopbackServer { _ in
            calls.record(.send)
            return calls.events.count < 3 ? ServerReply(status: 500) : .json(#"{"ok":true}"#)
        }
        let recorder = CallRecorder()
        let maxRetry = RecordingInterceptor(
            recorder: recorder, retry: { _, context in context.attempt < 3 ? .retry : .doNotRetry })
        let token = Adapter { request, context in
            recorder.record(.willSend("token", attempt: context.attempt))
            var request = request
            request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
            return request
        }
        let provider = Provider<TokenAPI>(
            plugins: [RecordingPlugin("logging", recorder: recorder)],
            interceptor: Interceptor(adapters: [maxRetry, token], retriers: [maxRetry]))

        let response = try await provider.request(TokenAPI(baseURL: server.baseURL, path: "/chain"))

        #expect(response.statusCode == 200)
        #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer abc" })
        func attempt(_ n: Int) -> [HookEvent] {
            [.prepare("logging"), .willSend("logging", attempt: n), .adapt(attempt: n), .willSend("token", attempt: n)]
        }
        #expect(
            recorder.events
                == attempt(1) + [.retry(attempt: 1, .failure(.validation))] + attempt(2)
                + [.retry(attempt: 2, .failure(.validation))] + attempt(3)
                + [.didReceive("logging", .success(200)), .process("logging", .success(200))])
    }
}
