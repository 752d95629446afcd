import Foundation

/// What a plugin's ``PluginType/didObserve(_:target:)-(OutboxActivity,_)`` sees of an
/// ``Outbox``: each entry taken, each wait between tries, each entry ended, with the queue's
/// state after it. Observation only; a try itself is a request, seen through the usual hooks.
public struct OutboxActivity: Sendable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The entry was taken (stored and synced).
        case enqueued
        /// The entry's try failed in a way that keeps it; the next try is in `seconds` (or on
        /// ``Outbox/flush()``).
        case waiting(attempt: Int, seconds: TimeInterval)
        /// The entry ended so.
        case ended(OutboxOutcomeKind)
    }

    /// What happened.
    public let kind: Kind
    /// The queue's name.
    public let queue: String
    /// The entry's identifier.
    public let entryID: UUID
    /// The entries waiting after it happened.
    public let waitingEntries: Int
    /// When the oldest entry waiting after it happened was taken; `nil` when none waits.
    public let oldestEnqueuedAt: Date?
    /// When it happened.
    public let date: Date

    /// Creates an observation.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - queue: The queue's name.
    ///   - entryID: The entry's identifier.
    ///   - waitingEntries: The entries waiting after it happened.
    ///   - oldestEnqueuedAt: When the oldest of them was taken.
    ///   - date: When; now by default.
    public init(
        _ kind: Kind, queue: String, entryID: UUID, waitingEntries: Int, oldestEnqueuedAt: Date?, date: Date = Date()
    ) {
        self.kind = kind
        self.queue = queue
        self.entryID = entryID
        self.waitingEntries = waitingEntries
        self.oldestEnqueuedAt = oldestEnqueuedAt
        self.date = date
    }
}
