import Courier
@_spi(CacheTests) import CourierTesting
import Foundation
import Testing

/// The cache through the provider on URLSession: the conformance suite's ETag case, each kind of
/// answer in the call order, and concurrent misses sent once.
@Suite("HTTP cache through the provider")
struct HTTPCacheProviderTests {
    @Test("six GETs of an ETag'd counter: one full answer, five 304s, the caller sees six 200s")
    func etagCase() async throws {
        let result = try await ETagCounter.runCase(on: URLSessionTransport())

        #expect(result.answers == Array(repeating: "200 count 1", count: 6))
        #expect((result.fullAnswers, result.notModified) == (1, 5))
        #expect(result.outcomes.first == .miss)
        #expect(result.outcomes.dropFirst().allSatisfy { if case .revalidated = $0 { true } else { false } })
    }

    @Test("twenty concurrent misses for one URL reach the server once; the others share its answer")
    func concurrentMisses() async throws {
        let arrivals = Counter()
        let gate = Gate()
        let server = try LoopbackServer { _ in
            arrivals.increment()
            gate.wait()
            return ServerReply(headers: ["Cache-Control": "max-age=60"], body: Data("shared".utf8))
        }
        defer { server.stop() }
        let provider = Provider<ETagCounter.Target>(
            transport: URLSessionTransport(), options: ProviderOptions(cache: HTTPCache()))

        let outcomes = try await withThrowingTaskGroup(of: CacheOutcome?.self) { group in
            for _ in 0..<20 {
                group.addTask { try await provider.request(ETagCounter.Target(baseURL: server.baseURL)).cacheOutcome }
            }
            try await arrivals.waitUntil(1)
            gate.open()
            return try await group.reduce(into: [CacheOutcome?]()) { $0.append($1) }
        }

        #expect(arrivals.value == 1)
        #expect(outcomes.filter { $0 == .miss }.count == 1)
        #expect(outcomes.filter { $0 == .shared || $0 == .fresh }.count == 19)
    }

    @Test("a fresh hit answers in the transport's place: every hook runs, in the documented order")
    func freshHitCallOrder() async throws {
        let server = try LoopbackServer { _ in
            ServerReply(headers: ["Cache-Control": "max-age=60"], body: Data("hello".utf8))
        }
        defer { server.stop() }
        let recorder = CallRecorder()
        let provider = Provider<ETagCounter.Target>(
            transport: URLSessionTransport(),
            plugins: [RecordingPlugin("Log", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder),
            options: ProviderOptions(cache: HTTPCache(clock: ManualClock())))
        _ = try await provider.request(ETagCounter.Target(baseURL: server.baseURL))
        recorder.reset()

        let hit = try await provider.request(ETagCounter.Target(baseURL: server.baseURL))

        #expect(hit.cacheOutcome == .fresh)
        #expect(hit.headerFields["Age"] == "0")
        #expect(
            recorder.events == [
                .prepare("Log"), .willSend("Log", attempt: 1), .adapt(attempt: 1), .willTransmit("Log", attempt: 1),
                .didCompleteAttempt("Log", attempt: 1, .success(200)),
                .didReceive("Log", .success(200)), .process("Log", .success(200)),
            ])
    }
}

/// Counts arrivals and lets a test wait for a number of them.
final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
    func waitUntil(_ target: Int, timeout: TimeInterval = 10) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while value < target {
            guard Date() < deadline else { throw CancellationError() }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// Holds the server's answers until the test opens it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Locked(false)
    func wait() {
        if opened.withLock({ $0 }) { return }
        semaphore.wait()
        semaphore.signal()
    }
    func open() {
        opened.withLock { $0 = true }
        semaphore.signal()
    }
}
