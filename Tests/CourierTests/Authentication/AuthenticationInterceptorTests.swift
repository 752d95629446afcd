import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("AuthenticationInterceptor")
struct AuthenticationInterceptorTests {
    /// A provider whose interceptor refreshes through the same provider.
    private func provider(
        _ server: TokenServer, credential: TokenPair?, window: RefreshWindow? = RefreshWindow(),
        failures: Locked<[String]> = Locked([])
    ) -> (Provider<TokenAPI>, TokenAuthenticator, AuthenticationInterceptor<TokenAuthenticator>) {
        let authenticator = TokenAuthenticator(server: server)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: credential, refreshWindow: window,
            onRefreshFailure: { error in failures.withLock { $0.append("\(error)") } })
        let provider = Provider<TokenAPI>(interceptor: interceptor)
        authenticator.provider.withLock { $0 = provider }
        return (provider, authenticator, interceptor)
    }

    @Test("100 concurrent requests with an expired token: exactly one refresh, 100 successes")
    func concurrentExpiry() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let (provider, authenticator, interceptor) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1"))

        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<100 {
                group.addTask { try? await provider.request(.data(server, index)).statusCode }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }

        #expect(statuses.count == 100 && statuses.allSatisfy { $0 == 200 })
        #expect(authenticator.refreshes.value == 1)
        #expect(server.refreshRequests == 1)
        let sends = Dictionary(grouping: server.dataRequests, by: \.path).mapValues(\.count)
        #expect(sends.count == 100)
        #expect(sends.values.allSatisfy { $0 <= 2 })
        #expect(interceptor.credential == TokenPair(access: "t2", refresh: "r2"))
    }

    @Test("a failed refresh fails every waiting request with its error, sends nothing more, calls back once")
    func refreshFailure() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        server.failRefreshes()
        let failures = Locked<[String]>([])
        let (provider, authenticator, _) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1"), failures: failures)

        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for index in 0..<20 {
                group.addTask { await capture { try await provider.request(.data(server, index)) } }
            }
            return await group.reduce(into: [CourierError?]()) { $0.append($1) }
        }

        #expect(errors.count == 20)
        for error in errors {
            // Every request fails with the refresh's error (the refresh endpoint's 400), whether
            // its 401 started the refresh or it waited for the refresh before being sent.
            #expect(error?.stage == .adapting)
            let refreshError = (error?.underlyingError as? AuthenticationError)?.refreshError as? CourierError
            #expect(refreshError?.response?.statusCode == 400, "\(String(describing: error))")
        }
        #expect(authenticator.refreshes.value == 1)
        // No retry after the failed refresh: each request reached the server at most once.
        #expect(server.dataRequests.count <= 20)
        #expect(Set(server.dataRequests.map(\.path)).count == server.dataRequests.count)
        #expect(failures.value.count == 1)
    }

    @Test("proactive refresh: an expired credential is refreshed before the first send")
    func proactiveRefresh() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let (provider, authenticator, _) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1", expired: true))

        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<10 {
                group.addTask { try? await provider.request(.data(server, index)).statusCode }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }

        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(authenticator.refreshes.value == 1)
        #expect(server.dataRequests.count { $0.header("Authorization") == "Bearer t1" } == 0)
        #expect(server.dataRequests.count == 10)
    }

    @Test("the refresh-loop guard trips after K refreshes in the window")
    func refreshLoopGuard() async throws {
        let server = try TokenServer()
        server.rejectEveryToken()
        let failures = Locked<[String]>([])
        let (provider, authenticator, _) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1"),
            window: RefreshWindow(interval: 60, maximumAttempts: 2), failures: failures)

        let error = await capture { try await provider.request(.data(server)) }

        let attempts = (error?.underlyingError as? AuthenticationError)?.excessiveRefreshAttempts
        #expect(attempts?.attempts == 2 && attempts?.interval == 60)
        #expect(authenticator.refreshes.value == 2)
        #expect(server.dataRequests.count == 3)
        #expect(failures.value.count == 1)
    }

    @Test("a missing credential is a clear error and nothing is sent")
    func missingCredential() async throws {
        let server = try TokenServer()
        let (provider, _, _) = provider(server, credential: nil)

        let error = await capture { try await provider.request(.data(server)) }

        guard case .adaptation(let underlying, _)? = error else {
            Issue.record("expected .adaptation, got \(String(describing: error))")
            return
        }
        #expect((underlying as? AuthenticationError)?.isMissingCredential == true)
        #expect(server.requests.isEmpty)
    }

    @Test("the refresh request made through the same provider completes")
    func refreshThroughSameProvider() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let (provider, authenticator, _) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1", expired: true))

        let response = try await provider.request(.data(server))

        #expect(response.statusCode == 200)
        #expect(authenticator.refreshes.value == 1)
        #expect(server.requests.first { $0.path == "/refresh" }?.header("Authorization") == nil)
    }

    @Test("setting a credential takes effect; a request signed with an older one retries without a refresh")
    func olderCredentialRetriesAtOnce() async throws {
        let server = try TokenServer(validToken: "t9")
        let (provider, authenticator, interceptor) = provider(
            server, credential: TokenPair(access: "t1", refresh: "r1"))
        let gate = CallRecorder()
        // The first attempt's 401 is held back until the app has signed in with a new credential.
        let held = Provider<TokenAPI>(
            interceptor: Interceptor(
                adapters: [interceptor],
                retriers: [
                    Retrier { _, _, _ in
                        _ = await gate.wait(for: .send)
                        return .doNotRetry
                    }, interceptor,
                ]))
        let call = Task { try await held.request(.data(server)) }
        #expect(await waitUntil { server.dataRequests.count == 1 })
        interceptor.credential = TokenPair(access: "t9", refresh: "r9")
        gate.record(.send)

        #expect(try await call.value.statusCode == 200)
        #expect(authenticator.refreshes.value == 0)
        #expect(server.dataRequests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t9"])
        _ = provider
    }
}
