import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order with an ``HTTPCache``: the cache answers in the transport's place, so each kind
/// of answer has the whole sequence of a network answer, and `.send` (the engine's own call)
/// shows when the network was used.
@Suite("Call order with the cache")
struct CacheCallOrderTests {
    let clock = ManualClock()
    let recorder = CallRecorder()

    /// A server answering 200 with `max-age=10` and an ETag, or 304 to a matching `If-None-Match`.
    func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            request.header("If-None-Match") == "\"v1\""
                ? ServerReply(status: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=10"])
                : ServerReply(headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=10"], body: Data("{}".utf8))
        }
    }

    func provider() -> Provider<OrderTarget> {
        Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder),
            options: ProviderOptions(cache: HTTPCache(clock: clock)))
    }

    /// One request's outcome and its recorded sequence, the recorder emptied for the next.
    func request(_ provider: Provider<OrderTarget>, _ target: OrderTarget) async -> (CacheOutcome?, [HookEvent]) {
        recorder.reset()
        let result = await provider.result(for: target)
        recorder.record(.completion(.init(result)))
        let outcome = (try? result.get())?.cacheOutcome ?? result.failureResponse?.cacheOutcome
        return (outcome, recorder.events)
    }

    /// An attempt answered without the engine: the network sequence without `.send`.
    static func answeredByCache(_ outcome: HookEvent.Outcome) -> [HookEvent] {
        [HookEvent].attempt(1, outcome).filter { $0 != .send } + .finish(outcome)
    }

    @Test("miss, fresh hit, revalidated hit, stale hit: the same hooks; the engine only for a miss and a validation")
    func kinds() async throws {
        let server = try server()
        defer { server.stop() }
        let provider = provider()
        let target = OrderTarget(baseURL: server.baseURL)

        let miss = await request(provider, target)
        #expect(miss.0 == .miss)
        #expect(miss.1 == [HookEvent].attempt(1, .success(200)) + .finish(.success(200)))

        let fresh = await request(provider, target)
        #expect(fresh.0 == .fresh)
        #expect(fresh.1 == Self.answeredByCache(.success(200)))

        clock.advance(11)
        let revalidated = await request(provider, target)
        #expect(revalidated.0.map { if case .revalidated = $0 { true } else { false } } == true)
        #expect(revalidated.1 == [HookEvent].attempt(1, .success(200)) + .finish(.success(200)))

        clock.advance(11)
        let stale = await request(
            Provider<OrderTarget>(
                requestClosure: { endpoint in
                    var request = try endpoint.urlRequest()
                    request.cachePolicy = .returnCacheDataElseLoad
                    return request
                }, transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
                plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
                interceptor: RecordingInterceptor(recorder: recorder), options: ProviderOptions(cache: provider.cache)),
            target)
        #expect(stale.0 == .stale(.maxStale))
        #expect(stale.1 == Self.answeredByCache(.success(200)))
    }

    @Test("only-if-cached with nothing stored: the cache's 504 fails validation, and retry is asked as for the network")
    func unsatisfiable() async throws {
        let server = try server()
        defer { server.stop() }
        let provider = Provider<OrderTarget>(
            requestClosure: { endpoint in
                var request = try endpoint.urlRequest()
                request.cachePolicy = .returnCacheDataDontLoad
                return request
            }, transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder),
            options: ProviderOptions(cache: HTTPCache(clock: clock)))

        let (outcome, events) = await request(provider, OrderTarget(baseURL: server.baseURL))

        #expect(outcome == .unsatisfiable)
        #expect(
            events == [HookEvent].attempt(1, .failure(.validation)).filter { $0 != .send }
                + [.retry(attempt: 1, .failure(.validation))] + .finish(.failure(.validation)))
        #expect(server.requests.isEmpty)
    }

    @Test("cancelled while the cache's fill is at the engine: the attempt ends cancelled, then the one cancellation")
    func cancelledDuringFill() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            _ = release.wait(timeout: .now() + 10)
            return ServerReply(headers: ["Cache-Control": "max-age=10"], body: Data("{}".utf8))
        }
        defer {
            release.signal()
            server.stop()
        }
        let provider = provider()
        let call = Task { await request(provider, OrderTarget(baseURL: server.baseURL)) }
        #expect(await recorder.wait(for: .send))
        call.cancel()
        let (_, events) = await call.value

        #expect(events == [HookEvent].attempt(1, .failure(.cancellation)) + .finish(.failure(.cancellation)))
    }
}

extension Result<Response, CourierError> {
    /// The response a failure carries, if any.
    fileprivate var failureResponse: Response? {
        if case .failure(let error) = self { return error.response }
        return nil
    }
}
