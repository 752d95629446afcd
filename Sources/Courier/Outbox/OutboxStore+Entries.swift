import Foundation

/// Taking, reading and ending entries.
extension OutboxStore {
    /// The encoder of the stored records: dates as seconds, keys sorted (stable files).
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// Writes `data` as a new entry within the bounds, durably, and returns its sequence;
    /// `written` runs once it is on disk, before the sender can see it.
    /// - Throws: ``OutboxError/full(entries:)``, ``OutboxError/tooManyBytes(limit:)``, or the
    ///   storage's error (nothing is then taken).
    func append(_ data: Data, options: OutboxOptions, written: () -> Void) throws(OutboxError) -> UInt64 {
        let size = data.count
        // Room is kept for the outcomes of the entries taken (an entry ends by its outcome being
        // written before the entry is removed): a disk filled by entries would stall the queue.
        if let free = entries.freeBytes(), free < size + Self.headroom(options) { throw .diskFull }
        let taken = counters.withLock { counters -> Result<UInt64, OutboxError> in
            guard !counters.closed else { return .failure(.closed) }
            guard counters.entries < options.maximumEntries else {
                return .failure(.full(entries: options.maximumEntries))
            }
            guard counters.bytes + size <= options.maximumBytes else {
                return .failure(.tooManyBytes(limit: options.maximumBytes))
            }
            let deadLimit = max(1, options.maximumDeadLetters)
            guard counters.deadLetters < deadLimit else { return .failure(.deadLettersFull(limit: deadLimit)) }
            counters.entries += 1
            counters.bytes += size
            counters.writing.insert(counters.tail)
            defer { counters.tail += 1 }
            return .success(counters.tail)
        }
        let sequence = try taken.get()
        do {
            try entries.write(data, as: StoredEntry<Int>.fileName(sequence), replacing: false)
        } catch {
            counters.withLock {
                $0.entries -= 1
                $0.bytes -= size
                $0.writing.remove(sequence)
            }
            throw error
        }
        written()
        counters.withLock { _ = $0.writing.remove(sequence) }
        return sequence
    }

    /// The free space an enqueue leaves for outcomes: room for a few, each with its stored body.
    static func headroom(_ options: OutboxOptions) -> Int {
        // A failure's record is written twice, its body in Base64 (4/3 of its bytes).
        4 * 2 * (options.maximumStoredBody * 4 / 3 + (16 << 10))
    }

    /// What is at the head of the queue.
    enum Head {
        /// No entry waits, or the first is still being written (its writer wakes the queue).
        case none
        case entry(sequence: UInt64, data: Data)
        /// The first entry's file could not be read now: the queue waits at it.
        case unreadable
    }

    /// The first waiting entry. A sequence whose file is gone (ended, or never written: a failed
    /// enqueue) is passed over, only when the file is known to be missing; `moving` false looks
    /// without passing over anything (a getter's look).
    func head(moving: Bool = true) -> Head {
        var (head, tail) = counters.withLock { ($0.head, $0.tail) }
        while head < tail {
            if counters.withLock({ $0.writing.contains(head) }) { return .none }
            switch entries.read(StoredEntry<Int>.fileName(head)) {
            case .data(let data): return .entry(sequence: head, data: data)
            case .failed: return .unreadable
            case .missing:
                if moving { counters.withLock { if $0.head == head { $0.head += 1 } } }
                head += 1
            }
        }
        return .none
    }

    /// Rewrites the entry of `sequence`, of `size` bytes so far, with `data` (its tries counted).
    func rewrite(_ sequence: UInt64, size: Int, _ data: Data) throws(OutboxError) {
        try entries.write(data, as: StoredEntry<Int>.fileName(sequence))
        counters.withLock { $0.bytes += data.count - size }
    }

    /// Ends the entry of `sequence` of `size` bytes with `outcome`: the outcome written (and on
    /// the dead-letter list unless `delivered`), then the entry removed; `ended` runs then,
    /// before the outcome's readers can see it. Past `keeping` outcomes not acknowledged, the
    /// oldest are let go.
    func finish(
        _ sequence: UInt64, size: Int, outcome: Data, delivered: Bool, keeping: Int, ended: () -> Void
    ) throws(OutboxError) {
        let name = StoredOutcome<Int>.fileName(sequence)
        // The dead letter first: recovery restores the outcome from it if a crash comes between.
        if !delivered { try dead.write(outcome, as: name) }
        try outcomes.write(outcome, as: name)
        try entries.remove(StoredEntry<Int>.fileName(sequence))
        counters.withLock { counters in
            counters.entries -= 1
            counters.bytes -= size
            if !delivered { counters.deadLetters += 1 }
            if counters.head == sequence { counters.head += 1 }
        }
        ended()
        let excess = counters.withLock { counters in
            counters.outcomes.append(sequence)
            let excess = counters.outcomes.prefix(max(0, counters.outcomes.count - max(1, keeping)))
            counters.outcomes.removeFirst(excess.count)
            return Array(excess)
        }
        // Let go of (a failure's record stays on the dead-letter list); a crash before the files
        // go only delivers them again.
        for old in excess { try? outcomes.remove(StoredOutcome<Int>.fileName(old)) }
    }

    /// Stops giving sequences, then waits for the entries being written to be written (or to
    /// fail), so that none is written after the queue's lock is released.
    func closeForWrites() async {
        counters.withLock { $0.closed = true }
        while counters.withLock({ !$0.writing.isEmpty }) { try? await Task.sleep(nanoseconds: 1_000_000) }
    }

    /// Removes the outcome of `sequence` from those to deliver, if its record is the entry `id`'s
    /// (`nil`: a record that does not read, delivered as unreadable); an outcome gone already
    /// (acknowledged, or let go past the bound) is no error.
    /// - Throws: ``OutboxError/unknownOutcome`` for another entry's record.
    func acknowledge(_ sequence: UInt64, id: UUID?) throws(OutboxError) {
        if try check(outcomes, sequence, id) { try outcomes.remove(StoredOutcome<Int>.fileName(sequence)) }
        counters.withLock { counters in
            if let index = counters.outcomes.firstIndex(of: sequence) { counters.outcomes.remove(at: index) }
        }
    }

    /// The stored outcome of `sequence` to deliver, if it is still there.
    func outcome(_ sequence: UInt64) -> DurableFolder.Read {
        outcomes.read(StoredOutcome<Int>.fileName(sequence))
    }

    /// The records of the dead-letter list, oldest first, with their sequences (a record that
    /// cannot be read now comes with no bytes: it is listed as unreadable). A failure whose entry
    /// has not finished (its outcome not stored yet: a full disk) is not on the list yet.
    func deadLetters() -> [(UInt64, Data)] {
        var sequences: [UInt64] = []
        dead.forEachFile { name, _ in
            if let sequence = StoredEntry<Int>.sequence(of: name) { sequences.append(sequence) }
        }
        return sequences.sorted().compactMap { sequence in
            guard !entries.contains(StoredEntry<Int>.fileName(sequence)) else { return nil }
            switch dead.read(StoredOutcome<Int>.fileName(sequence)) {
            case .data(let data): return (sequence, data)
            case .failed: return (sequence, Data())
            case .missing: return nil
            }
        }
    }

    /// Removes the failure of `sequence` from the dead-letter list, if its record is the entry
    /// `id`'s (`nil`: a record that does not read).
    /// - Throws: ``OutboxError/unknownOutcome`` for another record, none, or one whose entry has
    ///   not finished.
    func removeDeadLetter(_ sequence: UInt64, id: UUID?) throws(OutboxError) {
        guard !entries.contains(StoredEntry<Int>.fileName(sequence)), try check(dead, sequence, id) else {
            throw .unknownOutcome
        }
        try dead.remove(StoredOutcome<Int>.fileName(sequence))
        counters.withLock { $0.deadLetters -= 1 }
    }

    /// Whether `folder`'s record of `sequence` is the entry `id`'s (for `id` nil: one that does
    /// not read, or cannot be read now); `false` when there is none.
    /// - Throws: ``OutboxError/unknownOutcome`` for another entry's record.
    private func check(_ folder: DurableFolder, _ sequence: UInt64, _ id: UUID?) throws(OutboxError) -> Bool {
        switch folder.read(StoredOutcome<Int>.fileName(sequence)) {
        case .missing: return false
        case .failed:
            guard id == nil else { throw .unknownOutcome }
            return true
        case .data(let data):
            let stored = try? JSONDecoder().decode(StoredIdentifier.self, from: data).id
            guard stored == id else { throw .unknownOutcome }
            return true
        }
    }
}
