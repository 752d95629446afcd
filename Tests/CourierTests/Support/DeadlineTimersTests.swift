import CourierTesting
import Foundation
import Testing

@testable import Courier

@Suite("DeadlineTimers")
struct DeadlineTimersTests {
    /// The limits that fired, in order.
    private final class Fired: Sendable {
        private let names = Locked<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    @Test("limits fire once each, earliest first, whatever the order they were scheduled in")
    func firesInOrder() async {
        let timers = DeadlineTimers()
        let fired = Fired()
        _ = timers.schedule(after: 0.3) { fired.add("third") }
        _ = timers.schedule(after: 0.1) { fired.add("first") }
        _ = timers.schedule(after: 0.2) { fired.add("second") }
        #expect(await waitUntil { fired.all.count == 3 })
        #expect(fired.all == ["first", "second", "third"])
        #expect(timers.counts.scheduled == 0)
    }

    @Test("a cancelled limit never fires, even when it was the earliest one the timer was armed for")
    func cancelled() async {
        let timers = DeadlineTimers()
        let fired = Fired()
        let early = timers.schedule(after: 0.05) { fired.add("cancelled") }
        _ = timers.schedule(after: 0.15) { fired.add("kept") }
        timers.cancel(early)
        #expect(await waitUntil { fired.all.contains("kept") })
        #expect(fired.all == ["kept"])
    }

    @Test("a limit scheduled before the one the timer waits for is armed for: it fires first")
    func earlierLimitRearms() async {
        let timers = DeadlineTimers()
        let fired = Fired()
        _ = timers.schedule(after: 30) { fired.add("late") }
        _ = timers.schedule(after: 0.05) { fired.add("early") }
        #expect(await waitUntil { fired.all == ["early"] })
        #expect(timers.counts.scheduled == 1)
    }

    @Test("cancelled limits do not pile up: the heap is rebuilt when stale entries outnumber live ones")
    func boundedByLiveLimits() {
        let timers = DeadlineTimers()
        for _ in 0..<10_000 {
            timers.cancel(timers.schedule(after: 60) {})
        }
        let counts = timers.counts
        #expect(counts.scheduled == 0)
        #expect(counts.entries <= 130)
    }

    @Test("a request's adapt under a total timeout still ends at the deadline, through the provider's timer")
    func adaptBoundedByDeadline() async throws {
        struct Stalling: RequestInterceptor {
            func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                try await Task.sleep(nanoseconds: 30_000_000_000)
                return request
            }
        }
        let provider = Provider<TotalLimited>(stubClosure: Provider.immediatelyStub, interceptor: Stalling())
        let started = Date()
        await #expect(throws: CourierError.self) { _ = try await provider.request(TotalLimited()) }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(provider.timers.counts.scheduled == 0)
    }

    @Test("concurrent URLSession requests with different timeouts share one timer and each ends at its own")
    func concurrentTimeoutsOnURLSession() async throws {
        let server = try CacheFillTests.SlowServer()
        defer { server.stop() }
        let provider = Provider<CacheFillTests.Page>(transport: URLSessionTransport())
        let started = Date()
        let ends = await withTaskGroup(of: (TimeInterval, TimeInterval, Bool).self) { group in
            for timeout in Array(repeating: 0.3, count: 8) + Array(repeating: 1.5, count: 8) {
                group.addTask {
                    let result = await provider.result(
                        for: CacheFillTests.Page(baseURL: server.baseURL, timeout: timeout))
                    guard case .failure(.transport(let failure as TransportFailure, _)) = result else {
                        return (timeout, Date().timeIntervalSince(started), false)
                    }
                    return (timeout, Date().timeIntervalSince(started), failure.kind == .timedOut)
                }
            }
            var ends: [(TimeInterval, TimeInterval, Bool)] = []
            for await end in group { ends.append(end) }
            return ends
        }
        let timedOut = ends.filter { $0.2 }.count
        #expect(timedOut == 16, "every request timed out")
        let lastShort = try #require(ends.filter { $0.0 < 1 }.map(\.1).max())
        let firstLong = try #require(ends.filter { $0.0 > 1 }.map(\.1).min())
        #expect(lastShort < firstLong)
        #expect(firstLong >= 1.2, "a 1.5 s timeout fired early")
    }
}
