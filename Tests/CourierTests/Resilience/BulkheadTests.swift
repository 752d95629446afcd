import CourierTesting
import Foundation
import Testing

@testable import Courier

@Suite("Bulkhead")
struct BulkheadTests {
    @Test("places, then a bounded queue served in order, then queueFull")
    func queue() async throws {
        let clock = TestClock()
        let bulkhead = Bulkhead(ConcurrencyLimit(maximum: 1, queueLimit: 2, queueTimeout: 10))
        #expect(try await bulkhead.acquire(clock: clock) == 0)
        let order = Locked<[Int]>([])
        let first = Task {
            _ = try await bulkhead.acquire(clock: clock)
            order.withLock { $0.append(1) }
        }
        try await clock.waitForSleepers(1)  // its queue timeout is running
        let second = Task {
            _ = try await bulkhead.acquire(clock: clock)
            order.withLock { $0.append(2) }
        }
        try await clock.waitForSleepers(2)
        await #expect(throws: ResilienceError.queueFull) { try await bulkhead.acquire(clock: clock) }
        bulkhead.release()
        try await first.value
        bulkhead.release()
        try await second.value
        #expect(order.value == [1, 2])
        #expect(bulkhead.load == (1, 0))
    }

    @Test("a queued attempt times out on the clock, and its place in the queue is free again")
    func timeout() async throws {
        let clock = TestClock()
        let bulkhead = Bulkhead(ConcurrencyLimit(maximum: 1, queueLimit: 1, queueTimeout: 3))
        _ = try await bulkhead.acquire(clock: clock)
        let waiting = Task { try await bulkhead.acquire(clock: clock) }
        try await clock.waitForSleepers(1)
        clock.advance(by: 2.9)
        #expect(bulkhead.load == (1, 1))
        clock.advance(by: 0.1)
        await #expect(throws: ResilienceError.queueTimedOut(after: 3)) { try await waiting.value }
        #expect(bulkhead.load == (1, 0))
    }

    @Test("cancelling a queued attempt frees its place in the queue at once")
    func cancellation() async throws {
        let clock = TestClock()
        let bulkhead = Bulkhead(ConcurrencyLimit(maximum: 1, queueLimit: 1, queueTimeout: 60))
        _ = try await bulkhead.acquire(clock: clock)
        let waiting = Task { try await bulkhead.acquire(clock: clock) }
        try await clock.waitForSleepers(1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(bulkhead.load == (1, 0))
        let next = Task { try await bulkhead.acquire(clock: clock) }
        try await clock.waitForSleepers(1)
        bulkhead.release()
        #expect(try await next.value == 0)
    }

    @Test("the wait is bounded by the request's time left when that is shorter than the queue timeout")
    func patience() async throws {
        let clock = TestClock()
        let bulkhead = Bulkhead(ConcurrencyLimit(maximum: 1, queueLimit: 1, queueTimeout: 30))
        _ = try await bulkhead.acquire(clock: clock)
        let waiting = Task { try await bulkhead.acquire(clock: clock, patience: 1.5) }
        try await clock.waitForSleepers(1)
        clock.advance(by: 1.5)
        await #expect(throws: ResilienceError.queueTimedOut(after: 1.5)) { try await waiting.value }
    }
}
