import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's rules through the provider on URLSession, on a clock the test moves.
@Suite("HTTP cache rules through the provider")
struct HTTPCacheBehaviourTests {
    struct Item: TargetType {
        var baseURL: URL
        var path = "/item"
        var method: HTTPMethod = .get
        var cachePolicy: URLRequest.CachePolicy?
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// A server whose answers the test sets, counting arrivals.
    final class Origin: Sendable {
        let reply = Locked(ServerReply())
        let arrivals = Locked<[String]>([])
        func answer(_ request: ServerRequest) -> ServerReply {
            arrivals.withLock {
                $0.append("\(request.method) \(request.path) \(request.header("If-None-Match") ?? "-")")
            }
            return reply.withLock { $0 }
        }
    }

    let clock = ManualClock()

    func setUp() throws -> (Origin, LoopbackServer, Provider<Item>, CallRecorder) {
        let origin = Origin()
        let server = try LoopbackServer { origin.answer($0) }
        let recorder = CallRecorder()
        let provider = Provider<Item>(
            transport: URLSessionTransport(),
            plugins: [RecordingPlugin("Log", recorder: recorder, observesAttempts: true)],
            options: ProviderOptions(cache: HTTPCache(clock: clock)))
        return (origin, server, provider, recorder)
    }

    @Test("a stale entry with an ETag is revalidated: one conditional request, the stored body, the usual hooks")
    func revalidated() async throws {
        let (origin, server, provider, recorder) = try setUp()
        defer { server.stop() }
        origin.reply.withLock {
            $0 = ServerReply(headers: ["ETag": "\"a\"", "Cache-Control": "max-age=10"], body: Data("v1".utf8))
        }
        _ = try await provider.request(Item(baseURL: server.baseURL))
        clock.advance(11)
        origin.reply.withLock {
            $0 = ServerReply(status: 304, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=10"])
        }
        recorder.reset()

        let response = try await provider.request(Item(baseURL: server.baseURL))

        #expect(response.statusCode == 200)
        #expect(String(decoding: response.data, as: UTF8.self) == "v1")
        guard case .revalidated(let notModified)? = response.cacheOutcome else {
            Issue.record("expected a revalidated hit, got \(String(describing: response.cacheOutcome))")
            return
        }
        #expect(notModified["ETag"] == "\"a\"")
        #expect(origin.arrivals.withLock { $0 } == ["GET /item -", "GET /item \"a\""])
        #expect(
            recorder.events == [
                .prepare("Log"), .willSend("Log", attempt: 1), .willTransmit("Log", attempt: 1),
                .didCompleteAttempt("Log", attempt: 1, .success(200)), .didReceive("Log", .success(200)),
                .process("Log", .success(200)),
            ])
        // Freshened by the 304: the next request is a fresh hit.
        #expect(try await provider.request(Item(baseURL: server.baseURL)).cacheOutcome == .fresh)
    }

    @Test("within stale-if-error, a 503 from the server is answered with the stored response")
    func staleIfError() async throws {
        let (origin, server, provider, _) = try setUp()
        defer { server.stop() }
        origin.reply.withLock {
            $0 = ServerReply(
                headers: ["ETag": "\"a\"", "Cache-Control": "max-age=1, stale-if-error=60"], body: Data("v1".utf8))
        }
        _ = try await provider.request(Item(baseURL: server.baseURL))
        clock.advance(30)
        origin.reply.withLock { $0 = ServerReply(status: 503) }

        let response = try await provider.request(Item(baseURL: server.baseURL))
        #expect(response.statusCode == 200)
        #expect(response.cacheOutcome == .stale(.ifError))

        clock.advance(60)
        #expect(try await provider.request(Item(baseURL: server.baseURL)).statusCode == 503)
    }

    @Test("stale-if-error without a validator: a 503, a server that is down, an open breaker all get the stored answer")
    func staleIfErrorWithoutValidator() async throws {
        let origin = Origin()
        origin.reply.withLock {
            $0 = ServerReply(headers: ["Cache-Control": "max-age=1, stale-if-error=60"], body: Data("v1".utf8))
        }
        let server = try LoopbackServer { origin.answer($0) }
        let breaker = CircuitBreaker(consecutiveFailures: 1)
        let provider = Provider<Item>(
            transport: URLSessionTransport(),
            options: ProviderOptions(
                cache: HTTPCache(clock: clock), resilience: ResiliencePolicy(circuitBreaker: breaker), clock: clock))
        _ = try await provider.request(Item(baseURL: server.baseURL))
        clock.advance(5)
        origin.reply.withLock { $0 = ServerReply(status: 503) }

        let rejected = try await provider.request(Item(baseURL: server.baseURL))
        #expect(rejected.cacheOutcome == .stale(.ifError))
        #expect(String(decoding: rejected.data, as: UTF8.self) == "v1")
        // The 503 opened the breaker: the next request is refused below the cache, which answers.
        server.stop()
        let refused = try await provider.request(Item(baseURL: server.baseURL))
        #expect(refused.cacheOutcome == .stale(.ifError))
        #expect(origin.arrivals.withLock { $0.count } == 2)

        clock.advance(60)
        await #expect(throws: CourierError.self) { try await provider.request(Item(baseURL: server.baseURL)) }
    }

    @Test("server down within stale-if-error: the stored answer, no retry; back up: revalidated with a 304")
    func serverKilledAndRestarted() async throws {
        let origin = Origin()
        origin.reply.withLock {
            $0 = ServerReply(
                headers: ["ETag": "\"a\"", "Cache-Control": "max-age=2, stale-if-error=60"], body: Data("v1".utf8))
        }
        let server = try LoopbackServer { origin.answer($0) }
        let recorder = CallRecorder()
        let provider = Provider<Item>(
            transport: URLSessionTransport(),
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }),
            options: ProviderOptions(cache: HTTPCache(clock: clock)))
        _ = try await provider.request(Item(baseURL: server.baseURL))
        clock.advance(5)
        server.stop()

        let down = try await provider.request(Item(baseURL: server.baseURL))
        #expect(down.cacheOutcome == .stale(.ifError))
        #expect(String(decoding: down.data, as: UTF8.self) == "v1")
        #expect(!recorder.events.contains { if case .retry = $0 { true } else { false } })

        origin.reply.withLock {
            $0 = ServerReply(status: 304, headers: ["ETag": "\"a\"", "Cache-Control": "max-age=2"])
        }
        let back = try LoopbackServer(port: server.port) { origin.answer($0) }
        defer { back.stop() }
        let up = try await provider.request(Item(baseURL: back.baseURL))
        #expect(up.cacheOutcome.map { if case .revalidated = $0 { true } else { false } } == true)
        #expect(String(decoding: up.data, as: UTF8.self) == "v1")
    }

    @Test("cachePolicy maps onto the cache on every engine: only-if-cached, any age, reload")
    func cachePolicies() async throws {
        let (origin, server, provider, _) = try setUp()
        defer { server.stop() }
        var item = Item(baseURL: server.baseURL)
        item.cachePolicy = .returnCacheDataDontLoad
        let unsatisfiable = try await provider.request(item)
        #expect(unsatisfiable.statusCode == 504)
        #expect(unsatisfiable.cacheOutcome == .unsatisfiable)
        #expect(origin.arrivals.withLock { $0 }.isEmpty)

        origin.reply.withLock { $0 = ServerReply(headers: ["Cache-Control": "max-age=10"], body: Data("v1".utf8)) }
        _ = try await provider.request(Item(baseURL: server.baseURL))
        clock.advance(1_000)
        item.cachePolicy = .returnCacheDataElseLoad
        #expect(try await provider.request(item).cacheOutcome == .stale(.maxStale))
        item.cachePolicy = .reloadIgnoringLocalCacheData
        #expect(try await provider.request(item).cacheOutcome == .miss)
        #expect(origin.arrivals.withLock { $0.count } == 2)
    }

    @Test("a successful POST removes the stored answer for its URL")
    func invalidation() async throws {
        let (origin, server, provider, _) = try setUp()
        defer { server.stop() }
        origin.reply.withLock { $0 = ServerReply(headers: ["Cache-Control": "max-age=100"], body: Data("v1".utf8)) }
        _ = try await provider.request(Item(baseURL: server.baseURL))
        #expect(try await provider.request(Item(baseURL: server.baseURL)).cacheOutcome == .fresh)

        _ = try await provider.request(Item(baseURL: server.baseURL, method: .post))

        #expect(try await provider.request(Item(baseURL: server.baseURL)).cacheOutcome == .miss)
    }

    @Test("the attempt's metrics say what the cache did")
    func metrics() async throws {
        let (origin, server, _, _) = try setUp()
        defer { server.stop() }
        let metrics = MetricsRecorder()
        let provider = Provider<Item>(
            transport: URLSessionTransport(), plugins: [metrics],
            options: ProviderOptions(cache: HTTPCache(clock: clock)))
        origin.reply.withLock { $0 = ServerReply(headers: ["Cache-Control": "max-age=100"], body: Data("v1".utf8)) }
        _ = try await provider.request(Item(baseURL: server.baseURL))
        _ = try await provider.request(Item(baseURL: server.baseURL))
        #expect(metrics.outcomes == [.miss, .fresh])
    }

    /// Records each request's attempt cache outcomes.
    final class MetricsRecorder: PluginType, Sendable {
        private let seen = Locked<[CacheOutcome?]>([])
        var outcomes: [CacheOutcome?] { seen.withLock { $0 } }
        func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
            seen.withLock { $0 += metrics.attempts.map(\.cacheOutcome) }
        }
    }
}
