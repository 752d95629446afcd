import Foundation

/// The files of one outbox queue, in the folder `<folder>/<name>/`:
/// - `lock`: held (`flock`) by the one outbox that owns the queue;
/// - `entries/<sequence>.entry`: each waiting entry, written whole and synced before
///   ``Outbox/enqueue(_:)`` returns, rewritten (atomically) as its tries are counted;
/// - `outcomes/<sequence>.outcome`: each outcome not yet acknowledged;
/// - `dead/<sequence>.outcome`: each failure on the dead-letter list;
/// - `uploads/`: the state of file uploads under way (``ResumableUpload``).
///
/// An entry ends by its outcome being written first, then the entry removed; a crash between the
/// two leaves both, and recovery takes the entry as finished (never sent again). Memory does not
/// grow with the entries waiting: the store keeps counters and reads one entry at a time.
final class OutboxStore: Sendable {
    struct Counters {
        /// The sequence of the first entry that may still wait.
        var head: UInt64 = 1
        /// The sequence the next entry gets.
        var tail: UInt64 = 1
        var entries = 0
        var bytes = 0
        /// Sequences of outcomes not yet acknowledged, in order.
        var outcomes: [UInt64] = []
        /// The failures on the dead-letter list.
        var deadLetters = 0
        /// Sequences given to entries whose files are being written: the queue waits at them.
        var writing: Set<UInt64> = []
        /// Set by ``Outbox/close()``: no sequence is given after it.
        var closed = false
    }

    let entries: DurableFolder
    let outcomes: DurableFolder
    let dead: DurableFolder
    /// Where the resumable uploads of the queue's file uploads keep their state.
    let uploads: URL
    private let lock: UploadLock
    let counters: Locked<Counters>
    /// Where the store's blocking file work runs (each write is synced: milliseconds): never on
    /// Swift's cooperative threads, which a blocked call would take from every other task.
    private let io = DispatchQueue(label: "Courier.Outbox.io")

    /// Opens the queue `name` in `folder`: takes its lock, then recovers its state from its files.
    /// - Throws: ``OutboxError``.
    init(folder: URL, name: String) throws(OutboxError) {
        let root = folder.appendingPathComponent(name, isDirectory: true)
        entries = try DurableFolder(root.appendingPathComponent("entries", isDirectory: true))
        outcomes = try DurableFolder(root.appendingPathComponent("outcomes", isDirectory: true))
        dead = try DurableFolder(root.appendingPathComponent("dead", isDirectory: true))
        uploads = root.appendingPathComponent("uploads", isDirectory: true)
        do {
            lock = try UploadLock(root.appendingPathComponent("lock"))
        } catch .uploadInProgress {
            throw .locked(name: name)
        } catch {
            throw .storage(operation: "take its lock", errno: EIO)
        }
        counters = Locked(Counters())
        do {
            try recover()
        } catch {
            lock.release()
            throw error
        }
    }

    /// Runs `body` (file work that blocks) on the store's own queue and returns its result.
    func perform<Value: Sendable>(
        _ body: @escaping @Sendable () throws(OutboxError) -> Value
    ) async throws(OutboxError) -> Value {
        let result: Result<Value, OutboxError> = await withCheckedContinuation { continuation in
            io.async { continuation.resume(returning: Result { () throws(OutboxError) -> Value in try body() }) }
        }
        return try result.get()
    }

    /// Runs `body` (file work that blocks) on the store's own queue and returns its result.
    func perform<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            io.async { continuation.resume(returning: body()) }
        }
    }

    /// Releases the queue's lock.
    func close() {
        lock.release()
    }

    /// Makes both records of a finished entry whole: a crash between writing the outcome and
    /// the dead letter (or the other way) leaves one; a failure's record belongs in both.
    private func restoreRecords(of sequence: UInt64, into recovered: inout Counters) throws(OutboxError) {
        let name = StoredOutcome<Int>.fileName(sequence)
        switch (outcomes.read(name), dead.read(name)) {
        case (.data(let record), .missing):
            let kind = try? JSONDecoder().decode(StoredKind.self, from: record).kind
            if kind != OutboxOutcomeKind.delivered.rawValue {
                try dead.write(record, as: name)
                recovered.deadLetters += 1
            }
        case (.missing, .data(let record)):
            try outcomes.write(record, as: name)
            recovered.outcomes.append(sequence)
        default: break
        }
    }

    /// Reads the folders once: finished entries (an outcome stored, a crash before their removal)
    /// are removed; the counters and the outcomes to deliver are set.
    private func recover() throws(OutboxError) {
        var recovered = Counters()
        var highest: UInt64 = 0
        outcomes.forEachFile { name, _ in
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { return }
            recovered.outcomes.append(sequence)
            highest = max(highest, sequence)
        }
        dead.forEachFile { name, _ in
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { return }
            recovered.deadLetters += 1
            highest = max(highest, sequence)
        }
        var lowest = UInt64.max
        var finished: [String] = []
        entries.forEachFile { name, size in
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { return }
            highest = max(highest, sequence)
            let outcome = StoredOutcome<Int>.fileName(sequence)
            if outcomes.contains(outcome) || dead.contains(outcome) { return finished.append(name) }
            lowest = min(lowest, sequence)
            recovered.entries += 1
            recovered.bytes += size
        }
        for name in finished {
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { continue }
            try restoreRecords(of: sequence, into: &recovered)
            try entries.remove(name)
        }
        recovered.head = lowest == .max ? highest + 1 : lowest
        recovered.tail = highest + 1
        recovered.outcomes.sort()
        counters.withLock { $0 = recovered }
    }
}

/// The kind of a stored outcome, read alone.
private struct StoredKind: Decodable {
    let kind: String
}
