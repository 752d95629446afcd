import Foundation

/// What a ``ResiliencePolicy`` did to one attempt, as ``AttemptMetrics/resilience`` records it
/// for plugins and metrics.
public struct ResilienceRecord: Sendable, Hashable {
    /// Seconds the attempt waited for a server's back-off to end.
    public internal(set) var backOffWait: TimeInterval = 0
    /// Seconds the attempt waited for a token of the rate limit.
    public internal(set) var rateLimitWait: TimeInterval = 0
    /// Seconds the attempt waited for a place of the concurrency limit.
    public internal(set) var queueWait: TimeInterval = 0
    /// Copies of the exchange sent besides the first (``Hedging``); 0 without hedging.
    public internal(set) var hedges = 0
    /// Which copy answered: 0 for the first, 1 for the first hedge…; `nil` when none did.
    public internal(set) var answeredBy: Int?
    /// The circuit breaker's state changes that this attempt caused or saw, in order.
    public internal(set) var circuitTransitions: [CircuitTransition] = []
    /// Whether the breaker let this attempt through as a half-open probe.
    public internal(set) var wasProbe = false

    /// An empty record: no wait, no hedge, no transition.
    public init() {}

    /// Seconds waited in all before the exchange started.
    public var totalWait: TimeInterval { backOffWait + rateLimitWait + queueWait }
}

/// The record of one attempt, written by the resilience stage while the attempt runs (possibly
/// by several hedged exchanges at once) and read by the provider when it ends.
final class ResilienceNotes: Sendable {
    private let record = Locked(ResilienceRecord())

    /// Changes the record.
    func update(_ change: (inout ResilienceRecord) -> Void) {
        record.withLock { change(&$0) }
    }

    /// The record so far.
    var snapshot: ResilienceRecord { record.value }
}
