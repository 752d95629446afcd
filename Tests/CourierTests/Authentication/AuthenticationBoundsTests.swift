import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every retry path of ``AuthenticationInterceptor`` ends, and a failed refresh fails its
/// requests one way.
@Suite("AuthenticationInterceptor bounds")
struct AuthenticationBoundsTests {
    /// Signs with the token and a fresh nonce, as request-signing schemes do.
    struct NonceAuthenticator: Authenticator {
        let base: TokenAuthenticator
        func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
            var request = base.apply(credential, to: request)
            request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Nonce")
            return request
        }
        func refresh(_ credential: TokenPair) async throws -> TokenPair { try await base.refresh(credential) }
    }

    /// Refreshes only when the test opens the gate, then fails.
    final class GatedAuthenticator: Authenticator {
        let base: TokenAuthenticator
        let gate = CallRecorder()
        let refreshes = Locked(0)
        /// Calls to `requiresAuthentication`: `adapt` makes one once the request has begun.
        let questions = Locked(0)
        init(base: TokenAuthenticator) { self.base = base }
        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            questions.withLock { $0 += 1 }
            return true
        }
        func apply(_ credential: TokenPair, to request: URLRequest) -> URLRequest {
            base.apply(credential, to: request)
        }
        func refresh(_ credential: TokenPair) async throws -> TokenPair {
            refreshes.withLock { $0 += 1 }
            _ = await gate.wait(for: .send)
            throw URLError(.userAuthenticationRequired)
        }
    }

    /// Answers 401 to every request, each once `count` requests have arrived, so that all of
    /// them were sent with the same credential.
    final class BarrierTransport: Transport {
        let sent = Locked(0)
        private let arrivals = CallRecorder()
        private let count: Int
        init(holdingUntil count: Int) { self.count = count }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            sent.withLock { $0 += 1 }
            arrivals.record(.send)
            _ = await arrivals.wait(for: .send, count: count)
            return TransportResponse(statusCode: 401, data: Data())
        }
    }

    /// Runs `count` requests at once and returns their errors (`nil` for a success).
    private func storm(_ provider: Provider<TokenAPI>, _ server: TokenServer, _ count: Int, from first: Int = 0)
        async -> [CourierError?]
    {
        await withTaskGroup(of: CourierError?.self) { group in
            for index in first..<(first + count) {
                group.addTask { await capture { try await provider.request(.data(server, index)) } }
            }
            return await group.reduce(into: [CourierError?]()) { $0.append($1) }
        }
    }

    @Test("a signature with a nonce: one refresh and one retry, not an endless loop")
    func nonceSignature() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let base = TokenAuthenticator(server: server)
        let interceptor = AuthenticationInterceptor(
            authenticator: NonceAuthenticator(base: base), credential: TokenPair(access: "t1", refresh: "r1"))
        let provider = Provider<TokenAPI>(interceptor: interceptor)
        let call = Task { try await provider.request(.data(server)).statusCode }
        // A watchdog, not a timing assertion: an endless loop fails the test instead of hanging it.
        let watchdog = Task {
            _ = await waitUntil(timeout: 20) { false }
            call.cancel()
        }
        defer { watchdog.cancel() }

        #expect(try await call.value == 200)
        #expect(base.refreshes.value == 1)
        #expect(server.dataRequests.map { $0.header("Authorization") } == ["Bearer t1", "Bearer t2"])
    }

    @Test("without a refresh window, a server that rejects every token stops after maximumRetries")
    func retriesAreBounded() async throws {
        let server = try TokenServer()
        server.rejectEveryToken()
        let authenticator = TokenAuthenticator(server: server)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1"), refreshWindow: nil,
            maximumRetries: 2)
        let provider = Provider<TokenAPI>(interceptor: interceptor)

        let error = await capture { try await provider.request(.data(server)) }

        guard case .statusCode(let response)? = error else {
            Issue.record("expected the server's 401, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 401)
        #expect(server.dataRequests.count == 3)
        #expect(authenticator.refreshes.value == 2)
    }

    @Test("a refresh that fails under 200 requests: one error shape for all, one callback")
    func oneFailureShape() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let authenticator = GatedAuthenticator(base: TokenAuthenticator(server: server))
        let failures = Locked(0)
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1"),
            onRefreshFailure: { _ in failures.withLock { $0 += 1 } })
        let transport = BarrierTransport(holdingUntil: 100)
        let provider = Provider<TokenAPI>(transport: transport, interceptor: interceptor)

        // The first 100 are all answered 401 together, then wait for the refresh (one question in
        // `adapt`, one in `retry` each); the next 100 wait for it in `adapt` (one question each).
        async let rejected = storm(provider, server, 100)
        #expect(await waitUntil { authenticator.refreshes.value == 1 && authenticator.questions.value == 200 })
        async let waiting = storm(provider, server, 100, from: 100)
        #expect(await waitUntil { authenticator.questions.value == 300 })
        authenticator.gate.record(.send)
        let errors = await rejected + waiting

        #expect(errors.count == 200)
        for error in errors {
            guard case .adaptation(let underlying, _)? = error,
                (underlying as? AuthenticationError)?.refreshError is URLError
            else {
                Issue.record("expected .adaptation(refreshFailed), got \(String(describing: error))")
                continue
            }
        }
        #expect(authenticator.refreshes.value == 1)
        #expect(failures.value == 1)
        #expect(transport.sent.value == 100)
    }

    @Test("after a failed refresh new requests refresh once more; a tripped window is reported once")
    func failuresReportedOnce() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        server.failRefreshes()
        let authenticator = TokenAuthenticator(server: server)
        let failures = Locked<[String]>([])
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1"),
            refreshWindow: RefreshWindow(interval: 600, maximumAttempts: 2),
            onRefreshFailure: { error in failures.withLock { $0.append("\(error)") } })
        let provider = Provider<TokenAPI>(interceptor: interceptor)

        var batches: [[CourierError?]] = []
        for batch in 0..<4 {
            batches.append(await storm(provider, server, 20, from: batch * 20))
        }

        #expect(authenticator.refreshes.value == 2)
        #expect(failures.value.count == 3, "\(failures.value)")
        let last = batches[3].map { ($0?.underlyingError as? AuthenticationError)?.excessiveRefreshAttempts?.attempts }
        #expect(last == Array(repeating: 2, count: 20))
        #expect(batches.joined().allSatisfy { $0?.stage == .adapting })

        interceptor.credential = TokenPair(access: "t-server-only", refresh: "r9")
        #expect(try await provider.request(.data(server, 99)).statusCode == 200)
    }
}
