import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Interceptor")
struct InterceptorTests {
    private let context = RequestContext(target: SampleAPI.user("a"), attempt: 1)
    private let request = URLRequest(url: URL(string: "https://example.com")!)

    private func tagger(_ tag: String, log: Locked<[String]>) -> Adapter {
        Adapter { request, _ in
            log.withLock { $0.append(tag) }
            var request = request
            request.addValue(tag, forHTTPHeaderField: "X-Tags")
            return request
        }
    }

    @Test("adapters run in order, each on the previous output; interceptors come after")
    func adaptersInOrder() async throws {
        let log = Locked<[String]>([])
        let both = Interceptor(adapters: [tagger("c", log: log)])
        let interceptor = Interceptor(adapters: [tagger("a", log: log), tagger("b", log: log)], interceptors: [both])
        let adapted = try await interceptor.adapt(request, context: context)
        #expect(adapted.value(forHTTPHeaderField: "X-Tags") == "a,b,c")
        #expect(log.value == ["a", "b", "c"])
    }

    @Test("the first adapter failure stops the chain")
    func firstFailureStops() async {
        struct Denied: Error {}
        let log = Locked<[String]>([])
        let interceptor = Interceptor(adapters: [
            tagger("a", log: log), Adapter { _, _ in throw Denied() }, tagger("c", log: log),
        ])
        await #expect(throws: Denied.self) { try await interceptor.adapt(request, context: context) }
        #expect(log.value == ["a"])
    }

    @Test("retriers are asked in order; the first answer other than doNotRetry wins")
    func retrierOrder() async {
        let log = Locked<[String]>([])
        func retrier(_ name: String, _ result: RetryResult) -> Retrier {
            Retrier { _, _, _ in
                log.withLock { $0.append(name) }
                return result
            }
        }
        let interceptor = Interceptor(
            retriers: [retrier("a", .doNotRetry), retrier("b", .retryWithDelay(2)), retrier("c", .retry)])
        let result = await interceptor.retry(request, dueTo: .cancelled, context: context)
        guard case .retryWithDelay(2) = result else {
            Issue.record("expected retryWithDelay(2), got \(result)")
            return
        }
        #expect(log.value == ["a", "b"])

        let none = await Interceptor(retriers: [retrier("d", .doNotRetry)]).retry(
            request, dueTo: .cancelled, context: context)
        guard case .doNotRetry = none else {
            Issue.record("expected doNotRetry, got \(none)")
            return
        }
    }

    @Test("the retry context carries the target, the attempt and the response")
    func retryContext() async throws {
        let seen = Locked<[String]>([])
        let transport = ScriptedTransport()
        transport.enqueue([.status(503), .status(200)], for: SampleAPI.user("a"))
        let provider = Provider<SampleAPI>(
            transport: transport,
            interceptor: Retrier { request, error, context in
                seen.withLock {
                    $0.append(
                        "\(context.target) #\(context.attempt) \(context.response?.statusCode ?? 0) \(error.stage) \(request.url!.path)"
                    )
                }
                return .retry
            })
        _ = try await provider.request(.user("a"))
        #expect(seen.value == [#"user("a") #1 503 validation /v1/users/a"#])
    }

    @Test("a huge or negative retry delay neither crashes nor hangs the cancellation")
    func extremeDelays() async throws {
        let transport = ScriptedTransport()
        transport.enqueue([.status(503), .status(200)], for: SampleAPI.user("a"))
        let negative = Provider<SampleAPI>(
            transport: transport, interceptor: Retrier { _, _, c in c.attempt == 1 ? .retryWithDelay(-5) : .doNotRetry }
        )
        #expect(try await negative.request(.user("a")).statusCode == 200)

        let recorder = CallRecorder()
        let huge = Provider<SampleAPI>(
            transport: ScriptedTransport(fallback: .status(503)),
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retryWithDelay(.infinity) }))
        let call = huge.request(.user("a"), callbackQueue: DispatchQueue(label: "t")) {
            recorder.record(.completion(.init($0)))
        }
        #expect(await recorder.wait(for: .retry(attempt: 1, .failure(.validation))))
        call.cancel()
        #expect(await recorder.wait(for: .completion(.failure(.cancellation))))
    }

    @Test("each attempt's context says why it is made: nil first, then the reason its predecessor was retried for")
    func retryReasonInContext() async throws {
        let statuses = Locked([503, 401, 200])
        let seen = Locked<[String]>([])
        let interceptor = Interceptor(
            adapters: [
                Adapter { request, context in
                    seen.withLock { $0.append("adapt \(context.attempt): \(context.retryReason?.description ?? "-")") }
                    return request
                }
            ],
            retriers: [
                Retrier { _, _, context in
                    if context.response?.statusCode == 401 { context.markRetry(.reauthentication) }
                    return .retry
                }
            ])
        let provider = Provider<SampleAPI>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .networkResponse(statuses.withLock { $0.removeFirst() }, Data())
                })
            }, stubClosure: Provider.immediatelyStub, interceptor: interceptor)

        #expect(try await provider.request(.user("a")).statusCode == 200)
        #expect(seen.value == ["adapt 1: -", "adapt 2: failure", "adapt 3: reauthentication"])
    }

    @Test(
        "retriers, the authentication interceptor and composites of them bound their waits; a closure adapter does not")
    func boundsItsWaits() {
        let retrier = Retrier { _, _, _ in .doNotRetry }
        #expect(RetryPolicy().boundsItsWaits)
        #expect(retrier.boundsItsWaits)
        #expect(Interceptor(retriers: [retrier], interceptors: [RetryPolicy()]).boundsItsWaits)
        #expect(!tagger("a", log: Locked([])).boundsItsWaits)
        #expect(!Interceptor(adapters: [tagger("a", log: Locked([]))], interceptors: [RetryPolicy()]).boundsItsWaits)
        #expect(
            !Interceptor(interceptors: [RetryPolicy(), Interceptor(adapters: [tagger("b", log: Locked([]))])])
                .boundsItsWaits)
    }

    @Test("withinTotalTimeout runs a wait as is without a total timeout, and ends it at the deadline with one")
    func withinTotalTimeout() async throws {
        #expect(try await context.withinTotalTimeout { 7 } == 7)
        /// Waits for a slow token through the context, and says so: the provider adds no limit.
        struct SelfBounded: RequestInterceptor {
            var boundsItsWaits: Bool { true }
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                try await context.withinTotalTimeout { try await Task.sleep(nanoseconds: 30_000_000_000) }
                return request
            }
        }
        let provider = Provider<TotalLimited>(stubClosure: Provider.immediatelyStub, interceptor: SelfBounded())
        let started = Date()
        let error = await #expect(throws: CourierError.self) { _ = try await provider.request(TotalLimited()) }
        #expect(error?.stage == .adapting)
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
