import Foundation
import Testing

@testable import Courier

@Suite("BreakerState")
struct BreakerStateTests {
    typealias Admission = BreakerState.Admission

    /// Records `count` outcomes at `now`, each admitted first; returns the transitions.
    @discardableResult
    static func record(
        _ state: inout BreakerState, failures count: Int, failed: Bool = true, at now: TimeInterval
    ) -> [CircuitTransition] {
        var transitions: [CircuitTransition] = []
        for _ in 0..<count {
            let admission = state.admit(now: now, transitions: &transitions)
            state.record(failure: failed, admission: admission, now: now, transitions: &transitions)
        }
        return transitions
    }

    @Test("opens at the failure ratio once the window holds the minimum throughput, not before")
    func opensAtRatio() {
        var state = BreakerState(CircuitBreaker(consecutiveFailures: nil), scope: "s")
        Self.record(&state, failures: 9, at: 0.1)
        #expect(state.state == .closed)
        let transitions = Self.record(&state, failures: 1, at: 0.2)
        #expect(state.state == .open)
        #expect(transitions == [CircuitTransition(from: .closed, to: .open, scope: "s")])
    }

    @Test("earlier successes hold it closed until failures reach half the window; they expire after 2 s")
    func successesExpire() {
        var state = BreakerState(CircuitBreaker(consecutiveFailures: nil), scope: "s")
        Self.record(&state, failures: 20, failed: false, at: 0)
        Self.record(&state, failures: 19, at: 0.5)
        #expect(state.state == .closed)
        Self.record(&state, failures: 1, at: 0.6)
        #expect(state.state == .open)

        var later = BreakerState(CircuitBreaker(consecutiveFailures: nil), scope: "s")
        Self.record(&later, failures: 100, failed: false, at: 0)
        // 2.1 s later the successes have left the window: ten failures are all it holds.
        Self.record(&later, failures: 10, at: 2.1)
        #expect(later.state == .open)
    }

    @Test("open: refuses with the time left; after the break one probe goes, the rest wait; success closes")
    func halfOpenCloses() {
        var state = BreakerState(CircuitBreaker(breakDuration: 5), scope: "s")
        Self.record(&state, failures: 10, at: 1)
        var transitions: [CircuitTransition] = []
        #expect(state.admit(now: 2, transitions: &transitions) == .refuse(retryAfter: 4))
        let probe = state.admit(now: 6, transitions: &transitions)
        #expect(probe == .probe)
        #expect(state.state == .halfOpen)
        #expect(state.admit(now: 6.1, transitions: &transitions) == .refuse(retryAfter: 0))
        state.record(failure: false, admission: probe, now: 6.2, transitions: &transitions)
        #expect(state.state == .closed)
        #expect(transitions.map(\.to) == [.halfOpen, .closed])
        #expect(state.admit(now: 6.3, transitions: &transitions) == .pass)
    }

    @Test("a failed probe opens it for another break; a cancelled probe frees its place")
    func probeFailsOrIsCancelled() {
        var state = BreakerState(CircuitBreaker(breakDuration: 5), scope: "s")
        Self.record(&state, failures: 10, at: 0)
        var transitions: [CircuitTransition] = []
        let cancelled = state.admit(now: 5, transitions: &transitions)
        #expect(cancelled == .probe)
        state.releaseProbe()
        let probe = state.admit(now: 5.1, transitions: &transitions)
        #expect(probe == .probe)
        state.record(failure: true, admission: probe, now: 5.5, transitions: &transitions)
        #expect(state.state == .open)
        #expect(state.admit(now: 6, transitions: &transitions) == .refuse(retryAfter: 4.5))
    }

    @Test("outcomes of attempts let through before it opened do not count once it is open")
    func lateOutcomesIgnored() {
        var state = BreakerState(CircuitBreaker(breakDuration: 5), scope: "s")
        var transitions: [CircuitTransition] = []
        let early = state.admit(now: 0, transitions: &transitions)
        Self.record(&state, failures: 10, at: 0.1)
        state.record(failure: false, admission: early, now: 0.2, transitions: &transitions)
        #expect(state.state == .open)
    }

    @Test("consecutive failures open it whatever the window; a success resets the run")
    func consecutive() {
        var state = BreakerState(CircuitBreaker(minimumThroughput: 1000, consecutiveFailures: 3), scope: "s")
        Self.record(&state, failures: 2, at: 0)
        Self.record(&state, failures: 1, failed: false, at: 0)
        Self.record(&state, failures: 2, at: 0)
        #expect(state.state == .closed)
        Self.record(&state, failures: 1, at: 0)
        #expect(state.state == .open)
    }

    @Test("default failures: transport failures, 5xx, 408 and 429; never another 4xx")
    func classification() {
        let breaker = CircuitBreaker()
        #expect([500, 502, 503, 504, 599, 408, 429].allSatisfy(breaker.isFailure(status:)))
        #expect(![200, 304, 400, 401, 403, 404, 409, 422].contains(where: breaker.isFailure(status:)))
        #expect(breaker.countsTransportFailures)
    }
}
