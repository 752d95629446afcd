import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Exactly one `began` and one `ended` per request on every path of CALL-ORDER.md.
@Suite("NetworkActivityPlugin")
struct NetworkActivityPluginTests {
    final class Counter: Sendable {
        let changes = Locked<[NetworkActivityChangeType]>([])
        var plugin: NetworkActivityPlugin {
            NetworkActivityPlugin { change, _ in self.changes.withLock { $0.append(change) } }
        }
    }

    enum Path: String, CaseIterable {
        case success, retried, adapterFails, prepareFails, buildingFails, transportFails, cancelledBefore,
            cancelledInFlight, cancelledInDelay
    }

    @Test("balanced on every path", arguments: Mode.allCases, Path.allCases)
    func balanced(mode: Mode, path: Path) async throws {
        struct Failure: Error {}
        let counter = Counter()
        let script: [Reply] =
            switch path {
            case .retried, .cancelledInDelay: [.status(503), .status(200)]
            case .transportFails: [.transportFailure]
            case .cancelledInFlight: [.hang]
            default: [.status(200)]
            }
        let harness = try OrderHarness(mode, script: script)
        let recorder = harness.recorder
        let base = harness.provider()
        let interceptor: RecordingInterceptor =
            switch path {
            case .retried:
                RecordingInterceptor(recorder: recorder, retry: { _, c in c.attempt == 1 ? .retry : .doNotRetry })
            case .cancelledInDelay: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retryWithDelay(30) })
            case .adapterFails: RecordingInterceptor(recorder: recorder, adapt: { _, _ in throw Failure() })
            default: RecordingInterceptor(recorder: recorder)
            }
        let failing: @Sendable (Endpoint) async throws -> URLRequest = { _ in throw Failure() }
        let requestClosure = path == .buildingFails ? failing : base.requestClosure
        let provider = Provider<OrderTarget>(
            endpointClosure: base.endpointClosure, requestClosure: requestClosure,
            stubClosure: base.stubClosure, transport: base.transport,
            plugins: [
                RecordingPlugin("P1", recorder: recorder) { _ in path == .prepareFails ? Failure() : nil },
                counter.plugin,
            ],
            interceptor: interceptor)

        switch path {
        case .cancelledBefore:
            _ = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await harness.run(provider)
            }.value
        case .cancelledInFlight, .cancelledInDelay:
            let call = Task { await harness.run(provider) }
            #expect(
                await recorder.wait(for: path == .cancelledInFlight ? .send : .retry(attempt: 1, .failure(.validation)))
            )
            call.cancel()
            _ = await call.value
        default:
            _ = await harness.run(provider)
        }

        #expect(counter.changes.value == [.began, .ended])
    }

    @Test("balanced for requests joined by trackInflights")
    func joined() async throws {
        let counter = Counter()
        let transport = ScriptedTransport(fallback: .delayed(0.05, .status(200)))
        let provider = Provider<SampleAPI>(transport: transport, plugins: [counter.plugin], trackInflights: true)
        async let first = provider.request(.user("a"))
        async let second = provider.request(.user("a"))
        _ = try await (first, second)
        let changes = counter.changes.value
        #expect(changes.count { $0 == .began } == changes.count { $0 == .ended })
        #expect(changes.first == .began && changes.last == .ended)
    }
}
