import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// CourierTesting's clock and fault injection, as tests of resilience rely on them.
@Suite("TestClock and FaultInjectingTransport")
struct FaultsTests {
    let request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://api.test/item")!))

    @Test("sleepers wake when the clock reaches them, in deadline order; a cancelled one at once")
    func clock() async throws {
        let clock = TestClock()
        let order = Locked<[Int]>([])
        let late = Task {
            try await clock.sleep(seconds: 2)
            order.withLock { $0.append(2) }
        }
        let early = Task {
            try await clock.sleep(seconds: 1)
            order.withLock { $0.append(1) }
        }
        let cancelled = Task { try await clock.sleep(seconds: 1) }
        try await clock.waitForSleepers(3)
        #expect(clock.nextDeadline == 1)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        clock.advance(by: 1.5)
        try await early.value
        #expect(order.value == [1])
        clock.advance(by: 0.5)
        try await late.value
        #expect(order.value == [1, 2])
        #expect(clock.date() == Date(timeIntervalSince1970: 1_700_000_002))
        await #expect(throws: TestClockError.sleepersDidNotArrive(expected: 1, waiting: 0)) {
            try await clock.waitForSleepers(1, timeout: 0.05)
        }
    }

    @Test("the same seed gives the same failures; outages fail everything inside them")
    func seeded() async throws {
        func statuses(seed: UInt64) async -> [Int] {
            let faults = FaultInjectingTransport(clock: TestClock(), seed: seed, failureRatio: 0.3)
            var statuses: [Int] = []
            for _ in 0..<50 { statuses.append((try? await faults.send(request).statusCode) ?? 0) }
            return statuses
        }
        let first = await statuses(seed: 42)
        #expect(await statuses(seed: 42) == first)
        #expect(await statuses(seed: 43) != first)
        let failed = first.filter { $0 == 503 }.count
        #expect((5...25).contains(failed))

        let clock = TestClock()
        let outage = FaultInjectingTransport(
            clock: clock, outages: [Outage(from: 1, to: 2, fault: .status(429, retryAfter: 7))])
        #expect(try await outage.send(request).statusCode == 200)
        clock.advance(by: 1)
        let throttled = try await outage.send(request)
        #expect(throttled.statusCode == 429)
        #expect(throttled.headerFields["Retry-After"] == "7")
        clock.advance(by: 1)
        #expect(try await outage.send(request).statusCode == 200)
        #expect(outage.received == [0, 1, 2])
    }

    @Test("latency is slept on the clock; a refused connection fails at once")
    func latencyAndRefusal() async throws {
        let clock = TestClock()
        let slow = FaultInjectingTransport(clock: clock, latency: .fixed(3))
        let call = Task { try await slow.send(request).statusCode }
        try await clock.waitForSleepers(1, wakingAt: 3)
        clock.advance(by: 3)
        #expect(try await call.value == 200)

        let refusing = FaultInjectingTransport(clock: clock, failureRatio: 1, randomFault: .connectionRefused)
        await #expect(throws: URLError.self) { try await refusing.send(request) }
    }

    @Test("a hedging percentile: the floor until 20 latencies are known, then the measured one")
    func percentile() {
        var window = LatencyWindow()
        for value in 1...19 { window.add(Double(value) / 1000) }
        #expect(window.percentile(0.95) == nil)
        window.add(0.020)
        #expect(window.percentile(0.95) == 0.020)
        #expect(window.percentile(0.5) == 0.011)
    }
}
