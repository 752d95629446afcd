import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order of a request its trust policy refuses: the gate stands where the engine is, so
/// every hook up to `willTransmit` runs, the engine is never reached (no `send`), and the failure
/// goes to the interceptor and the plugins as any transport failure does.
@Suite("Call order of a request refused by its trust policy")
struct TrustCallOrderTests {
    let recorder = CallRecorder()

    @Test("plain HTTP to a pinned host: the whole sequence, without a send")
    func refusedUnsent() async throws {
        let server = try LoopbackServer { _ in .text("never") }
        defer { server.stop() }
        var trust = TrustPolicy()
        try trust.pin("127.0.0.1", to: [TrustPolicyTests.abc, TrustPolicyTests.backup])
        let provider = Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .doNotRetry }),
            options: ProviderOptions(trust: trust))
        let failed = await #expect(throws: CourierError.self) {
            try await provider.request(OrderTarget(baseURL: server.baseURL))
        }
        recorder.record(.completion(.init(.failure(failed!))))
        let refused = HookEvent.Outcome.failure(.transport)
        let expected = [HookEvent].attempt(1, refused).filter { $0 != .send }
        #expect(recorder.events == expected + [.retry(attempt: 1, refused)] + .finish(refused))
        #expect(server.requests.isEmpty)
    }
}
