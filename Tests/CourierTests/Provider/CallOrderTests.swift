import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The contract of CALL-ORDER.md, path by path: each test compares the whole recorded sequence
/// with the expected one, through the stub transport and against the loopback server.
@Suite("Call order")
struct CallOrderTests {
    @Test("success", arguments: Mode.allCases)
    func success(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let result = await harness.run(harness.provider())

        #expect(try result.get().statusCode == 200)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .success(200)) + .finish(.success(200)))
    }

    @Test("plugins run in array order", arguments: Mode.allCases)
    func multiplePlugins(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        _ = await harness.run(harness.provider(plugins: ["P1", "P2", "P3"]))

        #expect(
            harness.recorder.events == [
                .prepare("P1"), .prepare("P2"), .prepare("P3"),
                .willSend("P1", attempt: 1), .willSend("P2", attempt: 1), .willSend("P3", attempt: 1),
                .adapt(attempt: 1), .willTransmit("P1", attempt: 1), .willTransmit("P2", attempt: 1),
                .willTransmit("P3", attempt: 1), .send, .didCompleteAttempt("P1", attempt: 1, .success(200)),
                .didCompleteAttempt("P2", attempt: 1, .success(200)),
                .didCompleteAttempt("P3", attempt: 1, .success(200)),
                .didReceive("P1", .success(200)), .didReceive("P2", .success(200)), .didReceive("P3", .success(200)),
                .process("P1", .success(200)), .process("P2", .success(200)), .process("P3", .success(200)),
                .completion(.success(200)),
            ])
    }

    @Test("validation failure retried, then success", arguments: Mode.allCases)
    func validationRetried(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(401), .status(200)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            retry: { _, context in
                context.response?.statusCode == 401 ? .retry : .doNotRetry
            })
        let result = await harness.run(harness.provider(interceptor: interceptor))

        #expect(try result.get().statusCode == 200)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .failure(.validation))
                + [.retry(attempt: 1, .failure(.validation))] + .attempt(2, .success(200)) + .finish(.success(200)))
    }

    @Test("retry with delay", arguments: Mode.allCases)
    func retryWithDelay(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(503), .status(200)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            retry: { _, context in
                context.attempt == 1 ? .retryWithDelay(0.05) : .doNotRetry
            })
        let start = Date()
        let result = await harness.run(harness.provider(interceptor: interceptor))

        #expect(try result.get().statusCode == 200)
        #expect(Date().timeIntervalSince(start) >= 0.05)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .failure(.validation))
                + [.retry(attempt: 1, .failure(.validation))] + .attempt(2, .success(200)) + .finish(.success(200)))
    }

    @Test("retries exhausted end with the last attempt's error", arguments: Mode.allCases)
    func retriesExhausted(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(500), .status(502)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            retry: { _, context in
                context.attempt < 2 ? .retry : .doNotRetry
            })
        let result = await harness.run(harness.provider(interceptor: interceptor))

        #expect(result.failure?.response?.statusCode == 502)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .failure(.validation))
                + [.retry(attempt: 1, .failure(.validation))] + .attempt(2, .failure(.validation))
                + [.retry(attempt: 2, .failure(.validation))] + .finish(.failure(.validation)))
    }

    @Test("doNotRetryWithError finishes with the retrier's error", arguments: Mode.allCases)
    func doNotRetryWithError(mode: Mode) async throws {
        struct SessionExpired: Error {}
        let harness = try OrderHarness(mode, script: [.status(401)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            retry: { _, _ in
                .doNotRetryWithError(SessionExpired())
            })
        let result = await harness.run(harness.provider(interceptor: interceptor))

        guard case .underlying(let error, let response)? = result.failure else {
            Issue.record("expected .underlying, got \(String(describing: result))")
            return
        }
        #expect(error is SessionExpired)
        #expect(response?.statusCode == 401)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .failure(.validation))
                + [.retry(attempt: 1, .failure(.validation))] + .finish(.failure(.other)))
    }

    @Test("transport error", arguments: Mode.allCases)
    func transportError(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.transportFailure])
        let result = await harness.run(harness.provider())

        #expect(result.failure?.stage == .transport)
        #expect(
            harness.recorder.events == [HookEvent].attempt(1, .failure(.transport))
                + [.retry(attempt: 1, .failure(.transport))] + .finish(.failure(.transport)))
    }

    @Test("prepare throws: no willSend, no adapt, no transport", arguments: Mode.allCases)
    func prepareThrows(mode: Mode) async throws {
        struct SigningFailed: Error {}
        let harness = try OrderHarness(mode, script: [.status(200)])
        let recorder = harness.recorder
        let base = harness.provider()
        let provider = Provider<OrderTarget>(
            endpointClosure: base.endpointClosure, stubClosure: base.stubClosure, transport: base.transport,
            plugins: [
                RecordingPlugin("P1", recorder: recorder, observesAttempts: true) { _ in SigningFailed() },
                RecordingPlugin("P2", recorder: recorder, observesAttempts: true),
            ],
            interceptor: base.interceptor)
        let result = await harness.run(provider)

        guard case .preparation(let error, _)? = result.failure else {
            Issue.record("expected .preparation, got \(String(describing: result))")
            return
        }
        #expect(error is SigningFailed)
        #expect(harness.serverRequestCount == 0)
        #expect(
            harness.recorder.events == [
                .prepare("P1"), .didCompleteAttempt("P1", attempt: 1, .failure(.preparing)),
                .didCompleteAttempt("P2", attempt: 1, .failure(.preparing)), .retry(attempt: 1, .failure(.preparing)),
                .didReceive("P1", .failure(.preparing)), .didReceive("P2", .failure(.preparing)),
                .process("P1", .failure(.preparing)), .process("P2", .failure(.preparing)),
                .completion(.failure(.preparing)),
            ])
    }

    @Test("prepare throws once, the retry succeeds", arguments: Mode.allCases)
    func prepareThrowsThenRetried(mode: Mode) async throws {
        struct Busy: Error {}
        let harness = try OrderHarness(mode, script: [.status(200)])
        let recorder = harness.recorder
        let base = harness.provider()
        let provider = Provider<OrderTarget>(
            endpointClosure: base.endpointClosure, stubClosure: base.stubClosure, transport: base.transport,
            plugins: [
                RecordingPlugin("P1", recorder: recorder, observesAttempts: true) { call in call == 1 ? Busy() : nil }
            ],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))
        let result = await harness.run(provider)

        #expect(try result.get().statusCode == 200)
        #expect(
            harness.recorder.events == [
                .prepare("P1"), .didCompleteAttempt("P1", attempt: 1, .failure(.preparing)),
                .retry(attempt: 1, .failure(.preparing)),
            ] + .attempt(2, .success(200)) + .finish(.success(200)))
    }

    /// The whole sequence of a request whose only attempt fails at `adapt`, as a throwing adapter
    /// or a header refused after it.
    static let failedAdapt: [HookEvent] =
        [
            .prepare("P1"), .willSend("P1", attempt: 1), .adapt(attempt: 1),
            .didCompleteAttempt("P1", attempt: 1, .failure(.adapting)), .retry(attempt: 1, .failure(.adapting)),
        ] + .finish(.failure(.adapting))

    @Test("adapt throws: no transport", arguments: Mode.allCases)
    func adaptThrows(mode: Mode) async throws {
        struct NoToken: Error {}
        let harness = try OrderHarness(mode, script: [.status(200)])
        let interceptor = RecordingInterceptor(recorder: harness.recorder, adapt: { _, _ in throw NoToken() })
        let result = await harness.run(harness.provider(interceptor: interceptor))

        #expect(result.failure?.stage == .adapting)
        #expect(result.failure?.underlyingError is NoToken)
        #expect(harness.serverRequestCount == 0)
        #expect(harness.recorder.events == Self.failedAdapt)
    }

    @Test("an invalid header after adapt: the same path as a failed adapt, no transport", arguments: Mode.allCases)
    func invalidHeaderAfterAdapt(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        let interceptor = RecordingInterceptor(
            recorder: harness.recorder,
            adapt: { request, _ in
                var request = request
                request.allHTTPHeaderFields = ["Authorization": "Bearer t\r\nX-Injected: 1"]
                return request
            })
        let result = await harness.run(harness.provider(interceptor: interceptor))

        #expect(result.failure?.stage == .adapting)
        #expect(
            result.failure?.underlyingError as? RequestValidationError
                == .invalidHeaderValue(name: "Authorization", problem: .carriageReturn))
        #expect(harness.serverRequestCount == 0)
        #expect(harness.recorder.events == Self.failedAdapt)
    }

    @Test("request building fails: no attempt, no retry", arguments: Mode.allCases)
    func buildingFails(mode: Mode) async throws {
        let harness = try OrderHarness(mode, script: [.status(200)])
        var target = harness.target
        target.task = .requestData(Data("body".utf8))  // a GET with a body is refused
        let result = await harness.run(harness.provider(), target)

        guard case .requestBuilding(let error)? = result.failure else {
            Issue.record("expected .requestBuilding, got \(String(describing: result))")
            return
        }
        #expect(error as? RequestValidationError == .bodyNotAllowed(.get))
        #expect(
            harness.recorder.events == .finish(.failure(.building)))
    }

    @Test("a throwing request closure fails the building stage", arguments: Mode.allCases)
    func requestClosureThrows(mode: Mode) async throws {
        struct KeychainLocked: Error {}
        let harness = try OrderHarness(mode, script: [.status(200)])
        let result = await harness.run(harness.provider(requestClosure: { _ in throw KeychainLocked() }))

        #expect(result.failure?.underlyingError is KeychainLocked)
        #expect(
            harness.recorder.events == .finish(.failure(.building)))
    }
}

extension Result {
    /// The error of a failure, or `nil`.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
