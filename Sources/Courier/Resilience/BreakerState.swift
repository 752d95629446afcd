import Foundation

/// The state machine of a ``CircuitBreaker``: closed, open or half-open, with the outcomes of
/// the sampling window and the probes in flight.
struct BreakerState: Sendable {
    /// What the breaker says to an attempt about to be sent.
    enum Admission: Equatable {
        /// Send it; its outcome counts in the window.
        case pass
        /// Send it as a half-open probe; its outcome closes or opens the breaker.
        case probe
        /// Do not send it; a probe may go in this many seconds.
        case refuse(retryAfter: TimeInterval)
    }

    let breaker: CircuitBreaker
    let scope: String
    private(set) var state = CircuitState.closed
    private var window: SlidingWindow
    private var consecutive = 0
    private var openedAt: TimeInterval = 0
    private var probes = 0

    init(_ breaker: CircuitBreaker, scope: String) {
        self.breaker = breaker
        self.scope = scope
        window = SlidingWindow(duration: breaker.samplingDuration)
    }

    /// Admits or refuses an attempt at `now`; a break that is over turns half-open first.
    mutating func admit(now: TimeInterval, transitions: inout [CircuitTransition]) -> Admission {
        switch state {
        case .closed:
            return .pass
        case .open:
            let left = openedAt + breaker.breakDuration - now
            guard left <= 0 else { return .refuse(retryAfter: left) }
            move(to: .halfOpen, &transitions)
            probes = 1
            return .probe
        case .halfOpen:
            guard probes < breaker.halfOpenProbes else { return .refuse(retryAfter: 0) }
            probes += 1
            return .probe
        }
    }

    /// Counts the outcome of an attempt admitted as `admission`.
    mutating func record(
        failure: Bool, admission: Admission, now: TimeInterval, transitions: inout [CircuitTransition]
    ) {
        if admission == .probe {
            guard state == .halfOpen else { return }
            probes = max(0, probes - 1)
            failure ? open(now: now, &transitions) : close(&transitions)
            return
        }
        // An attempt let through before the breaker opened tells nothing about the service now.
        guard state == .closed else { return }
        window.add(first: failure ? 0 : 1, second: failure ? 1 : 0, now: now)
        consecutive = failure ? consecutive + 1 : 0
        guard failure else { return }
        let (successes, failures) = window.totals(now: now)
        let total = successes + failures
        let ratioTrips = total >= breaker.minimumThroughput && Double(failures) >= breaker.failureRatio * Double(total)
        let runTrips = breaker.consecutiveFailures.map { consecutive >= $0 } ?? false
        if ratioTrips || runTrips { open(now: now, &transitions) }
    }

    /// A probe that ended without an outcome (cancelled) frees its place.
    mutating func releaseProbe() {
        if state == .halfOpen { probes = max(0, probes - 1) }
    }

    private mutating func open(now: TimeInterval, _ transitions: inout [CircuitTransition]) {
        openedAt = now
        probes = 0
        move(to: .open, &transitions)
    }

    private mutating func close(_ transitions: inout [CircuitTransition]) {
        window.reset()
        consecutive = 0
        probes = 0
        move(to: .closed, &transitions)
    }

    private mutating func move(to next: CircuitState, _ transitions: inout [CircuitTransition]) {
        transitions.append(CircuitTransition(from: state, to: next, scope: scope))
        state = next
    }
}
