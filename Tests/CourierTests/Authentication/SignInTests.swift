import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that starts without a credential signs in through its authenticator, once,
/// however many requests need it: a service that boots with client credentials.
@Suite("Sign-in bootstrap")
struct SignInTests {
    /// Signs in by asking the token server's refresh endpoint for a first pair.
    final class SigningIn: Authenticator, Sendable {
        let base: TokenAuthenticator
        let signIns = Locked(0)
        let fails: Bool

        init(_ base: TokenAuthenticator, fails: Bool = false) {
            self.base = base
            self.fails = fails
        }

        func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
            base.apply(credential, to: request)
        }

        func refresh(_ credential: TokenPair) async throws -> TokenPair {
            try await base.refresh(credential)
        }

        func signIn(context: RefreshContext) async throws -> TokenPair? {
            signIns.withLock { $0 += 1 }
            if fails { throw URLError(.userAuthenticationRequired) }
            return try await base.refresh(TokenPair(access: "", refresh: "client-credentials"))
        }

        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            base.requiresAuthentication(request, target: target)
        }
    }

    private func provider(
        _ server: TokenServer, fails: Bool = false, refreshed: Locked<[TokenPair]> = Locked([])
    ) -> (Provider<TokenAPI>, SigningIn, AuthenticationInterceptor<SigningIn>) {
        let authenticator = SigningIn(TokenAuthenticator(server: server), fails: fails)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: nil,
            onRefresh: { credential, _ in refreshed.withLock { $0.append(credential) } })
        let provider = Provider<TokenAPI>(interceptor: interceptor)
        authenticator.base.provider.withLock { $0 = provider }
        return (provider, authenticator, interceptor)
    }

    @Test("20 concurrent requests without a credential: one sign-in, 20 successes, onRefresh once")
    func concurrentSignIn() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let refreshed = Locked<[TokenPair]>([])
        let (provider, authenticator, interceptor) = provider(server, refreshed: refreshed)

        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<20 {
                group.addTask { try? await provider.request(.data(server, index)).statusCode }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }

        #expect(statuses.count == 20 && statuses.allSatisfy { $0 == 200 })
        #expect(authenticator.signIns.value == 1)
        #expect(server.refreshRequests == 1)
        // Nothing was sent unsigned: every data request reached the server once, with the token.
        #expect(server.dataRequests.count == 20)
        #expect(interceptor.credential == TokenPair(access: "t2", refresh: "r2"))
        #expect(refreshed.value == [TokenPair(access: "t2", refresh: "r2")])
    }

    @Test("after a sign-out the next request signs in again")
    func signInAfterSignOut() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let (provider, authenticator, interceptor) = provider(server)

        #expect(try await provider.request(.data(server)).statusCode == 200)
        interceptor.credential = nil
        #expect(try await provider.request(.data(server, 1)).statusCode == 200)

        #expect(authenticator.signIns.value == 2)
        #expect(interceptor.credential == TokenPair(access: "t3", refresh: "r3"))
    }

    @Test("a failed sign-in fails every waiting request with refreshFailed, and nothing is sent")
    func failedSignIn() async throws {
        let server = try TokenServer()
        let (provider, authenticator, _) = provider(server, fails: true)

        let errors = await withTaskGroup(of: CourierError?.self) { group in
            for index in 0..<10 {
                group.addTask { await capture { try await provider.request(.data(server, index)) } }
            }
            return await group.reduce(into: [CourierError?]()) { $0.append($1) }
        }

        #expect(authenticator.signIns.value == 1)
        #expect(server.requests.isEmpty)
        for error in errors {
            guard case .adaptation(let underlying, _)? = error,
                (underlying as? AuthenticationError)?.code == .refreshFailed
            else {
                Issue.record("expected adaptation(refreshFailed), got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("an authenticator that cannot sign in still fails with missingCredential, never excessiveRefresh")
    func noSignIn() async throws {
        let server = try TokenServer()
        let failures = Locked(0)
        let interceptor = AuthenticationInterceptor(
            authenticator: TokenAuthenticator(server: server), credential: nil,
            onRefreshFailure: { _ in failures.withLock { $0 += 1 } })
        let provider = Provider<TokenAPI>(interceptor: interceptor)

        for index in 0..<8 {
            let error = await capture { try await provider.request(.data(server, index)) }
            guard case .adaptation(let underlying, _)? = error else {
                Issue.record("expected .adaptation, got \(String(describing: error))")
                continue
            }
            #expect((underlying as? AuthenticationError)?.isMissingCredential == true)
        }
        #expect(failures.value == 0)
        #expect(server.requests.isEmpty)
    }
}

/// `onRefresh` may await (a keychain, a database): the requests that waited go on only once it
/// returned.
@Suite("Asynchronous refresh handlers")
struct AsyncRefreshHandlerTests {
    actor Store {
        var saved: [TokenPair] = []
        func save(_ credential: TokenPair) { saved.append(credential) }
    }

    @Test("the resend waits for an asynchronous onRefresh to store the credential")
    func resendAfterStore() async throws {
        let order = Locked<[String]>([])
        let server = try TokenServer(validToken: "t-server-only")
        let store = Store()
        let authenticator = TokenAuthenticator(server: server)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1"),
            onRefresh: { credential, _ in
                try? await Task.sleep(nanoseconds: 200_000_000)
                await store.save(credential)
                order.withLock { $0.append("stored") }
            })
        let provider = Provider<TokenAPI>(
            plugins: [ResendRecorder(order: order)], interceptor: interceptor)
        authenticator.provider.withLock { $0 = provider }

        #expect(try await provider.request(.data(server)).statusCode == 200)

        #expect(await store.saved == [TokenPair(access: "t2", refresh: "r2")])
        #expect(order.value == ["stored", "attempt 2"])
    }

    @Test("a synchronous onRefreshFailure still compiles and is called once")
    func synchronousFailureHandler() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        server.failRefreshes()
        let failures = Locked(0)
        let authenticator = TokenAuthenticator(server: server)
        let provider = Provider<TokenAPI>(
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1"),
                onRefreshFailure: { _ in failures.withLock { $0 += 1 } }))
        authenticator.provider.withLock { $0 = provider }
        _ = await capture { try await provider.request(.data(server)) }
        #expect(failures.value == 1)
    }

    /// Records each data request's second attempt as it is sent.
    struct ResendRecorder: PluginType {
        let order: Locked<[String]>

        func willSend(_ request: PreparedRequest, target: any TargetType) {
            guard request.attempt > 1, request.request.url?.path.hasPrefix("/data") == true else { return }
            order.withLock { $0.append("attempt \(request.attempt)") }
        }
    }
}
