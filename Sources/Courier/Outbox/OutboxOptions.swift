import Foundation

/// The bounds and the pace of an ``Outbox``.
///
/// ```swift
/// var options = OutboxOptions()
/// options.lifetime = 3 * 86_400      // a post not sent within three days is dropped, and reported
/// options.maximumAttempts = 100
/// let outbox = try provider.outbox(named: "posts", in: folder, options: options)
/// ```
public struct OutboxOptions: Sendable {
    /// The most entries waiting at once; ``Outbox/enqueue(_:)`` fails with
    /// ``OutboxError/full(entries:)`` past it. 10,000 by default.
    public var maximumEntries = 10_000
    /// The most bytes the waiting entries take on disk; ``Outbox/enqueue(_:)`` fails with
    /// ``OutboxError/tooManyBytes(limit:)`` past it. 64 MiB by default.
    public var maximumBytes = 64 << 20
    /// How long an entry may wait before it ends as ``OutboxOutcomeKind/expired``; `nil` for
    /// no limit. 7 days by default.
    public var lifetime: TimeInterval? = 7 * 86_400
    /// How many tries an entry gets before it ends as
    /// ``OutboxOutcomeKind/attemptsExhausted``; `nil` for no limit (the default: an outage
    /// of any length is waited out, within ``lifetime``).
    public var maximumAttempts: Int?
    /// The shortest wait after a failed try: 1 s by default. Each wait is a random point between
    /// it and a bound that starts at 1.5 times it and doubles with each failure in a row, up to
    /// ``maximumDelay``; a `Retry-After` raises the low end, up to ``maximumRetryAfter``.
    public var delay: TimeInterval = 1
    /// The longest wait between tries: 5 minutes by default.
    public var maximumDelay: TimeInterval = 300
    /// The longest `Retry-After` honoured; a longer one is cut to this. 1 hour by default.
    public var maximumRetryAfter: TimeInterval = 3_600
    /// The most bytes of an answer's body kept in an outcome: 64 KiB by default.
    public var maximumStoredBody = 64 << 10
    /// The most outcomes kept for ``Outbox/outcomes`` until they are acknowledged: past it, the
    /// oldest is let go, so that an app that never acknowledges them does not fill the disk (a
    /// failure let go so stays on the dead-letter list). 1,000 by default; below 1 counts as 1.
    /// An outcome takes up to ``maximumStoredBody`` in Base64 plus its fields: at the defaults,
    /// at most about 90 MB.
    public var maximumUnacknowledgedOutcomes = 1_000
    /// The most failures on the dead-letter list before ``Outbox/enqueue(_:)`` refuses new
    /// entries with ``OutboxError/deadLettersFull(limit:)``: a failure is never dropped, so the
    /// list is bounded by taking no more writes until ``Outbox/removeDeadLetter(_:)`` makes
    /// room (entries taken before may still end on it: at most ``maximumEntries`` more).
    /// 1,000 by default; below 1 counts as 1.
    public var maximumDeadLetters = 1_000

    /// Creates the default options.
    public init() {}
}
