import Foundation

/// One write an ``Outbox`` holds: its target, as the app enqueued it, and what the outbox keeps
/// about it.
public struct OutboxEntry<Target: TargetType & Codable>: Sendable, Identifiable {
    /// The entry's identifier, given when it was enqueued.
    public let id: UUID
    /// The target, as enqueued: each try builds its request from it again, through the whole
    /// pipeline (a fresh token, the cookies and the policies of the moment).
    public let target: Target
    /// The value of the `Idempotency-Key` sent with every try of this entry (the target's
    /// ``Idempotency/keyHeader``, `Idempotency-Key` by default): a server that honours it
    /// applies the write once, even when an answer was lost and the entry was sent again.
    public let idempotencyKey: String
    /// When the entry was enqueued.
    public let enqueuedAt: Date
    /// How many tries were started, this process's and earlier ones'.
    public let attempts: Int
}

/// An entry as the outbox keeps it on disk: the file `<sequence>.entry` holds it as JSON.
struct StoredEntry<Target: Codable & Sendable>: Codable, Sendable {
    var id: UUID
    var key: String
    var enqueued: Date
    var attempts: Int
    var expires: Date?
    var target: Target

    /// The file of the entry of `sequence`: sorted by name in the order entries were taken.
    static func fileName(_ sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".entry"
    }

    /// The sequence of a file named by ``fileName(_:)``, or `nil` for any other name.
    static func sequence(of name: String) -> UInt64? {
        guard name.hasSuffix(".entry") || name.hasSuffix(".outcome") else { return nil }
        let digits = name.prefix { $0 != "." }
        guard digits.count == 20 else { return nil }
        return UInt64(digits)
    }
}
