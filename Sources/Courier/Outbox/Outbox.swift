import Foundation

/// Writes that must reach the server, kept on disk until they do: each survives being offline,
/// a crash and a restart, goes out first in, first out, and takes effect once.
///
/// ```swift
/// let outbox = try provider.outbox(named: "posts", in: supportFolder)
/// let entry = try await outbox.enqueue(.createPost(text: "Hello from the tunnel"))
///
/// for await outcome in outbox.outcomes {
///     if outcome.isDelivered { markSent(outcome.id) } else { showFailure(outcome) }
///     try await outbox.acknowledge(outcome)
/// }
/// ```
/// - **Enqueue** stores the target (its `Codable` form) and syncs it to disk before it returns:
///   an entry ``enqueue(_:)`` returned is never lost, whatever happens to the process after.
/// - **Each try** builds the request from the target again, through the whole pipeline of the
///   provider (plugins, the interceptor's fresh token, cookies, resilience policies, in the
///   documented call order), with the entry's `Idempotency-Key`, the same on every try, so that a
///   server honouring it applies the write once even when an answer was lost and the write was
///   sent again (draft-ietf-httpapi-idempotency-key-header). No token is ever written to disk.
/// - **Outcomes**: a network failure, a timeout, a 408, 429 or 5xx, a resilience refusal and a
///   401 (after the interceptor's sign-in) keep the entry: it is tried again after a wait that
///   grows with jitter (``OutboxOptions``), honouring `Retry-After`, or at once on ``flush()``.
///   Any other answer ends it: delivered, or ``OutboxOutcomeKind/rejected`` onto the dead-letter
///   list with its answer. An entry's outcome is stored before the entry leaves the outbox, and
///   delivered by ``outcomes`` until ``acknowledge(_:)``, in this process or the next.
/// - **One owner**: the queue's folder is locked by the outbox that opened it; another process
///   (or a second instance here) gets ``OutboxError/locked(name:)`` until it is closed.
///
/// The entries wait in `folder/name/`; nothing is kept in memory per entry. An outbox sends until
/// ``close()`` or until the app lets go of it (a try under way finishes first); either releases
/// the queue for the next owner. Open each queue once, at launch, and keep it while the app sends.
public final class Outbox<Target: TargetType & Codable>: Sendable {
    /// The queue's name.
    public let name: String
    /// The outbox's bounds and pace.
    public let options: OutboxOptions
    let provider: Provider<Target>
    let store: OutboxStore
    /// Raised by an enqueue and a flush: an idle sender looks again.
    let work = OutboxSignal()
    /// Raised by a flush: a sender waiting out a back-off tries at once (an enqueue does not cut
    /// a back-off short).
    let flushed = OutboxSignal()
    /// Raised by each new outcome and by a close: the outcome readers look again.
    let finished = OutboxSignal()
    private let sender = Locked<Task<Void, Never>?>(nil)
    let isClosed = Locked(false)

    init(provider: Provider<Target>, name: String, folder: URL, options: OutboxOptions) throws(OutboxError) {
        guard Self.isValid(name) else { throw .invalidName(name) }
        self.name = name
        self.options = options
        self.provider = provider
        store = try OutboxStore(folder: folder, name: name)
        let (work, flushed, clock) = (work, flushed, provider.clock)
        let task = Task { [weak self] in
            await Self.send({ [weak self] in self }, work: work, flushed: flushed, clock: clock)
        }
        sender.withLock { $0 = task }
    }

    /// An outbox let go without ``close()`` stops sending: its sender holds it only during a
    /// step, so this runs between two steps (or at the end of one), and the queue's lock is
    /// released for the next owner.
    deinit {
        sender.withLock { $0 }?.cancel()
        if !isClosed.value { store.close() }
    }

    /// Stores `target` as a new entry, synced to disk, and returns it; the outbox sends it after
    /// the entries before it.
    /// - Parameter target: The write, as the app's API enum names it.
    /// - Returns: The entry: its identifier (``OutboxOutcome/id`` names it again) and its key.
    /// - Throws: ``OutboxError/full(entries:)`` or ``OutboxError/tooManyBytes(limit:)`` past the
    ///   bounds, ``OutboxError/diskFull``, ``OutboxError/encoding(_:)``, ``OutboxError/closed``;
    ///   the entry is then not taken.
    @discardableResult
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    public func enqueue(_ target: Target) async throws(OutboxError) -> OutboxEntry<Target> {
        guard !isClosed.value else { throw .closed }
        let date = provider.clock.date()
        let stored = StoredEntry(
            id: UUID(), key: UUID().uuidString, enqueued: date, attempts: 0,
            expires: options.lifetime.map { date.addingTimeInterval($0) }, target: target)
        let data = try Self.encoded(stored)
        let (store, options) = (store, options)
        _ = try await store.perform { () throws(OutboxError) -> UInt64 in
            try store.append(data, options: options) { self.observe(.enqueued, stored.id, target) }
        }
        work.raise()
        return OutboxEntry(
            id: stored.id, target: target, idempotencyKey: stored.key, enqueuedAt: date, attempts: 0)
    }

    /// Tries the first waiting entry now, without waiting out the current back-off: for an app
    /// that knows the network is back (or a test).
    public func flush() {
        flushed.raise()
        work.raise()
    }

    /// The number of entries waiting and the bytes they take.
    public var waiting: (entries: Int, bytes: Int) {
        store.counters.withLock { ($0.entries, $0.bytes) }
    }

    /// When the oldest waiting entry was enqueued; `nil` when none waits. Read from disk, on the
    /// outbox's own queue.
    public var oldestEnqueuedAt: Date? {
        get async {
            let store = store
            return await store.perform { Self.oldest(in: store) }
        }
    }

    /// Removes `outcome` from those ``outcomes`` delivers, for good (a later launch delivers it
    /// no more). A failure stays on the dead-letter list until ``removeDeadLetter(_:)``. An
    /// outcome gone already (acknowledged before, or let go past
    /// ``OutboxOptions/maximumUnacknowledgedOutcomes``) is no error. The file work runs on the
    /// outbox's own queue, never on the caller's thread.
    /// - Throws: ``OutboxError/unknownOutcome`` for an outcome of another outbox (its record
    ///   stays); ``OutboxError/storage(operation:errno:)`` when its record cannot be removed.
    public func acknowledge(_ outcome: OutboxOutcome<Target>) async throws(OutboxError) {
        let store = store
        try await store.perform { () throws(OutboxError) in
            try store.acknowledge(outcome.sequence, id: outcome.storedID)
        }
    }

    /// The failures on the dead-letter list, oldest first: entries rejected, expired, tried too
    /// often or unreadable, each with its last answer. Read from disk, on the outbox's own queue.
    public func deadLetters() async -> [OutboxOutcome<Target>] {
        let (store, date) = (store, provider.clock.date())
        return await store.perform {
            let decoder = OutboxStore.decoder()
            return store.deadLetters().map { sequence, data in
                (try? decoder.decode(StoredOutcome<Target>.self, from: data)).flatMap { OutboxOutcome($0) }
                    ?? OutboxOutcome(unreadableRecord: sequence, at: date)
            }
        }
    }

    /// Removes `outcome` from the dead-letter list, making room for
    /// ``OutboxOptions/maximumDeadLetters``. A record that cannot be read (listed as
    /// ``OutboxOutcomeKind/unreadable``) can be removed too.
    /// - Throws: ``OutboxError/unknownOutcome`` for a failure not on this outbox's list (removed
    ///   already, or another outbox's); ``OutboxError/storage(operation:errno:)`` when its record
    ///   cannot be removed.
    public func removeDeadLetter(_ outcome: OutboxOutcome<Target>) async throws(OutboxError) {
        let store = store
        try await store.perform { () throws(OutboxError) in
            try store.removeDeadLetter(outcome.sequence, id: outcome.storedID)
        }
    }

    /// Stops sending (a try under way is cancelled; its entry stays, to be tried by the next
    /// owner), ends ``outcomes``' iteration, and releases the queue's lock. Later calls do nothing.
    public func close() async {
        let first = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        await store.closeForWrites()
        let task = sender.withLock { $0 }
        task?.cancel()
        await task?.value
        finished.raise()
        store.close()
    }

    /// Tells the provider's plugins what happened to the entry `id`; called on the store's queue
    /// (it reads the oldest entry).
    func observe(_ kind: OutboxActivity.Kind, _ id: UUID, _ target: Target?) {
        let plugins = provider.plugins
        guard !plugins.isEmpty else { return }
        let activity = OutboxActivity(
            kind, queue: name, entryID: id, waitingEntries: waiting.entries, oldestEnqueuedAt: Self.oldest(in: store),
            date: provider.clock.date())
        for index in plugins.indices {
            plugins[index].didObserve(activity, target: target)
        }
    }

    /// When the oldest entry waiting in `store` was enqueued, read now: file work, called on the
    /// store's queue.
    private static func oldest(in store: OutboxStore) -> Date? {
        guard case .entry(_, let data) = store.head(moving: false) else { return nil }
        return try? OutboxStore.decoder().decode(StoredEntry<Target>.self, from: data).enqueued
    }

    /// The stored form of an entry.
    static func encoded(_ stored: StoredEntry<Target>) throws(OutboxError) -> Data {
        do {
            return try OutboxStore.encoder().encode(stored)
        } catch {
            throw .encoding(Self.describe(error))
        }
    }

    /// An encoder's error, without the values it was encoding: its kind and where.
    private static func describe(_ error: any Error) -> String {
        guard case .invalidValue(_, let context) = error as? EncodingError else {
            return String(describing: type(of: error))
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "a value at \(path.isEmpty ? "the top" : path) cannot be encoded"
    }

    /// Whether `name` can name a queue's folder.
    static func isValid(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count), !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
    }
}
