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
/// `@unchecked Sendable`: the record is read and written only under the lock (``update(_:)`` and
/// ``record``), so a writer that outlives its reader (a cache fill the caller left, a hedged
/// copy, a background validation) can never race the provider reading it. A struct over one
/// `ManagedBuffer` (the record in its header, the system's lock in its tail): one is made per
/// attempt, and a lock of its own would cost an allocation more (Benchmarks/count).
struct ResilienceNotes: @unchecked Sendable {
    /// The record and its lock, in one allocation.
    private final class Storage: ManagedBuffer<ResilienceRecord, PlatformMutex.Primitive> {
        // The buffer ends its header itself; the tail's one element, the lock, is ended here.
        deinit {
            withUnsafeMutablePointerToElements { PlatformMutex.deinitialize($0) }
        }
    }

    private let storage: Storage
    /// Whether the exchange deposits in the retry budget: the first attempt's, once per request.
    let deposits: Bool

    /// A new, empty record.
    init(deposits: Bool = false) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in ResilienceRecord() }
        buffer.withUnsafeMutablePointerToElements { PlatformMutex.initialize($0) }
        // `create` called on `Storage` makes an instance of it.
        storage = unsafeDowncast(buffer, to: Storage.self)
        self.deposits = deposits
    }

    /// A copy of what was recorded so far.
    var record: ResilienceRecord {
        storage.withUnsafeMutablePointers { header, lock in
            PlatformMutex.lock(lock)
            defer { PlatformMutex.unlock(lock) }
            return header.pointee
        }
    }

    /// Changes the record under the lock.
    func update(_ change: (inout ResilienceRecord) -> Void) {
        storage.withUnsafeMutablePointers { header, lock in
            PlatformMutex.lock(lock)
            defer { PlatformMutex.unlock(lock) }
            change(&header.pointee)
        }
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
