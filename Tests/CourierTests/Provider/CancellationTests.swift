import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cancellation at every point of CALL-ORDER.md: it stops at once, never asks the retrier, and
/// `didReceive`, `process` and the completion still run exactly once with `.cancelled`.
@Suite("Cancellation")
struct CancellationTests {
    private static let cancelledTail: [HookEvent] = .finish(.failure(.cancellation))

    @Test("cancelled before the first attempt", arguments: Mode.allCases)
    func beforeFirstAttempt(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let provider = harness.provider()
        let result = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await harness.run(provider)
        }.value

        #expect(result.failure?.isCancellation == true)
        #expect(harness.serverRequestCount == 0)
        #expect(harness.recorder.events == Self.cancelledTail)
    }

    @Test("cancelled while the request closure builds", arguments: Mode.allCases)
    func whileBuilding(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let started = CallRecorder()
        let provider = harness.provider(requestClosure: { endpoint in
            started.record(.send)
            try await Task.sleep(nanoseconds: 30_000_000_000)
            return try endpoint.urlRequest()
        })
        let call = Task { await harness.run(provider) }
        #expect(await started.wait(for: .send))
        call.cancel()
        let result = await call.value

        #expect(result.failure?.isCancellation == true)
        #expect(harness.recorder.events == Self.cancelledTail)
    }

    @Test("cancelled in flight, through the Cancellable", arguments: Mode.allCases)
    func inFlight(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.hang])
        let provider = harness.provider()
        let completed = CallRecorder()
        let start = Date()
        let call = provider.request(harness.target, callbackQueue: DispatchQueue(label: "test")) { result in
            harness.recorder.record(.completion(.init(result)))
            completed.record(.completion(.init(result)))
        }
        #expect(await harness.recorder.wait(for: .send))
        call.cancel()
        #expect(await completed.wait(for: .completion(.failure(.cancellation))))

        #expect(call.isCancelled)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(
            harness.recorder.events == .attempt(1, .failure(.cancellation)) + Self.cancelledTail)
    }

    @Test("cancelled while the retrier decides: the retrier's answer is ignored", arguments: Mode.allCases)
    func whileRetrierDecides(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(503), .status(200)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            retry: { _, _ in
                try? await Task.sleep(nanoseconds: 30_000_000_000)
                return .retry
            })
        let provider = harness.provider(interceptor: interceptor)
        let call = Task { await harness.run(provider) }
        #expect(await harness.recorder.wait(for: .retry(attempt: 1, .failure(.validation))))
        call.cancel()
        let result = await call.value

        #expect(result.failure?.isCancellation == true)
        #expect(
            harness.recorder.events
                == .attempt(1, .failure(.validation)) + [.retry(attempt: 1, .failure(.validation))]
                + Self.cancelledTail)
    }

    @Test("cancelled during a retry delay: no further attempt", arguments: Mode.allCases)
    func duringRetryDelay(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(503), .status(200)])
        let interceptor = RecordingInterceptor(recorder: harness.recorder, retry: { _, _ in .retryWithDelay(30) })
        let provider = harness.provider(interceptor: interceptor)
        let start = Date()
        let call = Task { await harness.run(provider) }
        #expect(await harness.recorder.wait(for: .retry(attempt: 1, .failure(.validation))))
        call.cancel()
        let result = await call.value

        #expect(result.failure?.isCancellation == true)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(
            harness.recorder.events
                == .attempt(1, .failure(.validation)) + [.retry(attempt: 1, .failure(.validation))]
                + Self.cancelledTail)
    }

    @Test("cancelled while an adapter awaits", arguments: Mode.allCases)
    func whileAdapting(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            adapt: { request, _ in
                try await Task.sleep(nanoseconds: 30_000_000_000)
                return request
            })
        let provider = harness.provider(interceptor: interceptor)
        let call = Task { await harness.run(provider) }
        #expect(await harness.recorder.wait(for: .adapt(attempt: 1)))
        call.cancel()
        let result = await call.value

        #expect(result.failure?.isCancellation == true)
        #expect(harness.serverRequestCount == 0)
        #expect(
            harness.recorder.events == [
                .prepare("P1"), .willSend("P1", attempt: 1), .adapt(attempt: 1),
                .didCompleteAttempt("P1", attempt: 1, .failure(.cancellation)),
            ] + Self.cancelledTail)
    }

    @Test("cancelling twice, or after completion, changes nothing")
    func cancelIsIdempotent() async throws {
        let harness = try OrderHarness(.stub, script: [.status(200)])
        let completed = CallRecorder()
        let call = harness.provider().request(harness.target, callbackQueue: DispatchQueue(label: "test")) {
            completed.record(.completion(.init($0)))
        }
        #expect(await completed.wait(for: .completion(.success(200))))
        call.cancel()
        call.cancel()

        #expect(completed.events == [.completion(.success(200))])
    }
}
