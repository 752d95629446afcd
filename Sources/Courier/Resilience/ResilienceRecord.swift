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

/// The record of one attempt (or of one copy of a hedged exchange), which the resilience stage
/// writes and the provider reads when the attempt ends.
///
/// `@unchecked Sendable`: `storage` is read and written only under `lock` (``update(_:)`` and
/// ``record``), so a writer that outlives its reader (a cache fill the caller left, a hedged
/// copy, a background validation) can never race the provider reading it. One lock, no boxed
/// `Locked`: a record is made per attempt.
final class ResilienceNotes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = ResilienceRecord()
    /// Whether the exchange deposits in the retry budget: the first attempt's, once per request.
    let deposits: Bool

    init(deposits: Bool = false) {
        self.deposits = deposits
    }

    /// A copy of what was recorded so far.
    var record: ResilienceRecord {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    /// Changes the record under the lock.
    func update(_ change: (inout ResilienceRecord) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        change(&storage)
    }

    /// Adds what one copy of a hedged exchange recorded.
    func merge(_ copy: ResilienceRecord) {
        update { record in
            record.backOffWait += copy.backOffWait
            record.rateLimitWait += copy.rateLimitWait
            record.queueWait += copy.queueWait
            record.circuitTransitions += copy.circuitTransitions
            record.wasProbe = record.wasProbe || copy.wasProbe
        }
    }
}
