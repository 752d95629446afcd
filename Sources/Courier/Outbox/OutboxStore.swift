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
        /// Sequences given to entries whose files are being written: the queue waits at them.
        var writing: Set<UInt64> = []
    }

    let entries: DurableFolder
    let outcomes: DurableFolder
    let dead: DurableFolder
    /// Where the resumable uploads of the queue's file uploads keep their state.
    let uploads: URL
    private let lock: UploadLock
    let counters: Locked<Counters>

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

    /// Releases the queue's lock.
    func close() {
        lock.release()
    }

    /// Reads the folders once: finished entries (an outcome stored, a crash before their removal)
    /// are removed; the counters and the outcomes to deliver are set.
    private func recover() throws(OutboxError) {
        var recovered = Counters()
        var highest: UInt64 = 0
        var pending: [UInt64] = []
        outcomes.forEachFile { name, _ in
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { return }
            pending.append(sequence)
            highest = max(highest, sequence)
        }
        dead.forEachFile { name, _ in
            guard let sequence = StoredEntry<Int>.sequence(of: name) else { return }
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
        for name in finished { try entries.remove(name) }
        recovered.head = lowest == .max ? highest + 1 : lowest
        recovered.tail = highest + 1
        recovered.outcomes = pending.sorted()
        counters.withLock { $0 = recovered }
    }
}
