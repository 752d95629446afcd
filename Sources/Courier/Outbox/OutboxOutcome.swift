import Foundation

/// How an ``Outbox`` entry ended: delivered, or a failure kept on the dead-letter list. Outcomes
/// are stored before their entry leaves the outbox, and delivered by ``Outbox/outcomes`` until
/// ``Outbox/acknowledge(_:)`` is called, in this process or a later one.
public struct OutboxOutcome<Target: TargetType & Codable>: Sendable, Identifiable {
    /// How an entry ended.
    public typealias Kind = OutboxOutcomeKind

    /// The entry's identifier (``OutboxEntry/id``).
    public let id: UUID
    /// The entry's target; `nil` only for ``OutboxOutcomeKind/unreadable``.
    public let target: Target?
    /// The `Idempotency-Key` its tries carried.
    public let idempotencyKey: String
    /// How it ended.
    public let kind: Kind
    /// The status of the last answer, if a server answered.
    public let statusCode: Int?
    /// The last answer's header fields (`Set-Cookie` left out: it went to the cookie jar, and an
    /// outcome is written to disk).
    public let headerFields: [String: String]
    /// The start of the last answer's body, at most ``OutboxOptions/maximumStoredBody`` bytes.
    public let body: Data
    /// Whether ``body`` is shorter than the answer's body: it was longer than
    /// ``OutboxOptions/maximumStoredBody``, or it stalled or broke after the answer's head.
    public let isBodyTruncated: Bool
    /// What failed last when no answer ends it (a lost connection, an expiry), in words.
    public let failure: String?
    /// How many tries were started.
    public let attempts: Int
    /// When the entry was enqueued.
    public let enqueuedAt: Date
    /// When it ended.
    public let finishedAt: Date
    /// The entry's place in its queue.
    let sequence: UInt64
    /// Whether its record read (an outcome whose record does not read is delivered as
    /// ``OutboxOutcomeKind/unreadable``, to be acknowledged).
    var recordReads = true

    /// The identifier its record holds, for the checks of acknowledge; `nil` for a record that
    /// does not read.
    var storedID: UUID? { recordReads ? id : nil }

    /// Whether the entry was delivered.
    public var isDelivered: Bool { kind == .delivered }
}

/// An outcome as the outbox keeps it on disk (`<sequence>.outcome`, JSON).
struct StoredOutcome<Target: Codable & Sendable>: Codable, Sendable {
    var id: UUID
    var sequence: UInt64
    var key: String
    var kind: String
    var status: Int?
    var headers: [String: String]
    var body: Data
    var truncated: Bool
    var failure: String?
    var attempts: Int
    var enqueued: Date
    var finished: Date
    var target: Target?

    /// The file of the outcome of the entry of `sequence`.
    static func fileName(_ sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".outcome"
    }
}

extension OutboxOutcome {
    /// The outcome of a record at `sequence` that does not read (damaged on disk): delivered as
    /// unreadable, so that it can be acknowledged.
    init(unreadableRecord sequence: UInt64, at date: Date) {
        self.init(
            id: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), target: nil, idempotencyKey: "",
            kind: .unreadable, statusCode: nil, headerFields: [:], body: Data(), isBodyTruncated: false,
            failure: "its stored outcome does not read", attempts: 0, enqueuedAt: date, finishedAt: date,
            sequence: sequence, recordReads: false)
    }

    /// The outcome a stored record describes; `nil` for a record of an unknown kind.
    init?(_ stored: StoredOutcome<Target>) {
        guard let kind = Kind(rawValue: stored.kind) else { return nil }
        self.init(
            id: stored.id, target: stored.target, idempotencyKey: stored.key, kind: kind, statusCode: stored.status,
            headerFields: stored.headers, body: stored.body, isBodyTruncated: stored.truncated,
            failure: stored.failure, attempts: stored.attempts, enqueuedAt: stored.enqueued,
            finishedAt: stored.finished, sequence: stored.sequence)
    }
}
