import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The contract around a credential refresh: the refresh's own request runs its whole pipeline
/// inside the failed request's `retry`, the plugins hear of the refresh once, before the request
/// goes on, and the resend is recorded as a reauthentication, not a failure retry.
extension CallOrderTests {
    /// Keeps every request's metrics.
    struct MetricsCapture: PluginType {
        let metrics = Locked<[RequestMetrics]>([])

        func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
            self.metrics.withLock { $0.append(metrics) }
        }
    }

    @Test("a 401, a refresh through the same provider, the resend")
    func refreshThroughProvider() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        let recorder = CallRecorder()
        let capture = MetricsCapture()
        let authenticator = TokenAuthenticator(server: server)
        let provider = Provider<TokenAPI>(
            plugins: [RecordingPlugin("P", recorder: recorder, observesAttempts: true), capture],
            interceptor: AuthenticationInterceptor(
                authenticator: authenticator, credential: TokenPair(access: "t1", refresh: "r1")))
        authenticator.provider.withLock { $0 = provider }

        #expect(try await provider.request(.data(server)).statusCode == 200)

        let attempt = { (number: Int, outcome: HookEvent.Outcome) -> [HookEvent] in
            [
                .prepare("P"), .willSend("P", attempt: number), .willTransmit("P", attempt: number),
                .didCompleteAttempt("P", attempt: number, outcome),
            ]
        }
        let refreshCall = attempt(1, .success(200)) + [.didReceive("P", .success(200)), .process("P", .success(200))]
        #expect(
            recorder.events
                == attempt(1, .failure(.validation)) + refreshCall
                + [.didRefreshCredential("P", succeeded: true)] + attempt(2, .success(200))
                + [.didReceive("P", .success(200)), .process("P", .success(200))])
        let request = try #require(capture.metrics.value.last)
        #expect(request.attempts.map(\.retryReason) == [.reauthentication, nil])
    }

    @Test("a failed refresh: the plugins hear of it once, with the request's failure after it")
    func failedRefresh() async throws {
        let server = try TokenServer(validToken: "t-server-only")
        server.failRefreshes()
        let recorder = CallRecorder()
        let provider = Provider<TokenAPI>(
            plugins: [RecordingPlugin("P", recorder: recorder)],
            interceptor: AuthenticationInterceptor(
                authenticator: TokenAuthenticator(server: server), credential: TokenPair(access: "t1", refresh: "r1")))

        _ = await capture { try await provider.request(.data(server)) }

        #expect(recorder.events.filter { if case .didRefreshCredential = $0 { true } else { false } }.count == 1)
        #expect(
            recorder.events.suffix(3) == [
                .didRefreshCredential("P", succeeded: false), .didReceive("P", .failure(.adapting)),
                .process("P", .failure(.adapting)),
            ])
    }

    @Test("a failure retried by a retry policy is recorded as a failure retry")
    func failureRetryReason() async throws {
        let harness = try OrderHarness(.network, script: [.status(503), .status(200)])
        let capture = MetricsCapture()
        let provider = Provider<OrderTarget>(
            plugins: [capture], interceptor: RetryPolicy(exponentialBackoffScale: 0.01))
        #expect(try await provider.request(harness.target).statusCode == 200)
        #expect(capture.metrics.value.first?.attempts.map(\.retryReason) == [.failure, nil])
    }
}
