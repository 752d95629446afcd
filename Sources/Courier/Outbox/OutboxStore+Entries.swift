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
            guard counters.entries < options.maximumEntries else {
                return .failure(.full(entries: options.maximumEntries))
            }
            guard counters.bytes + size <= options.maximumBytes else {
                return .failure(.tooManyBytes(limit: options.maximumBytes))
            }
            counters.entries += 1
            counters.bytes += size
            counters.writing.insert(counters.tail)
            defer { counters.tail += 1 }
            return .success(counters.tail)
        }
        let sequence = try taken.get()
        do {
            try entries.write(data, as: StoredEntry<Int>.fileName(sequence))
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
        4 * (options.maximumStoredBody + (16 << 10))
    }

    /// The first waiting entry's sequence and bytes; `nil` when none waits, or the first is
    /// still being written (its writer wakes the queue once it is).
    func head() -> (sequence: UInt64, data: Data)? {
        while true {
            let (head, tail, writing) = counters.withLock { ($0.head, $0.tail, $0.writing.contains($0.head)) }
            guard head < tail, !writing else { return nil }
            if let data = entries.read(StoredEntry<Int>.fileName(head)) { return (head, data) }
            // Ended, or never written (a failed enqueue): the queue goes on past it.
            counters.withLock { if $0.head == head { $0.head += 1 } }
        }
    }

    /// Rewrites the entry of `sequence`, of `size` bytes so far, with `data` (its tries counted).
    func rewrite(_ sequence: UInt64, size: Int, _ data: Data) throws(OutboxError) {
        try entries.write(data, as: StoredEntry<Int>.fileName(sequence))
        counters.withLock { $0.bytes += data.count - size }
    }

    /// Ends the entry of `sequence` of `size` bytes with `outcome`: the outcome written (and on
    /// the dead-letter list unless `delivered`), then the entry removed; `ended` runs then,
    /// before the outcome's readers can see it.
    func finish(
        _ sequence: UInt64, size: Int, outcome: Data, delivered: Bool, ended: () -> Void
    ) throws(OutboxError) {
        let name = StoredOutcome<Int>.fileName(sequence)
        try outcomes.write(outcome, as: name)
        if !delivered { try dead.write(outcome, as: name) }
        try entries.remove(StoredEntry<Int>.fileName(sequence))
        counters.withLock { counters in
            counters.entries -= 1
            counters.bytes -= size
            if counters.head == sequence { counters.head += 1 }
        }
        ended()
        counters.withLock { $0.outcomes.append(sequence) }
    }

    /// Removes the outcome of `sequence` from those to deliver.
    func acknowledge(_ sequence: UInt64) throws(OutboxError) {
        try outcomes.remove(StoredOutcome<Int>.fileName(sequence))
        counters.withLock { counters in
            if let index = counters.outcomes.firstIndex(of: sequence) { counters.outcomes.remove(at: index) }
        }
    }

    /// The stored outcome of `sequence` to deliver, if it is still there.
    func outcome(_ sequence: UInt64) -> Data? {
        outcomes.read(StoredOutcome<Int>.fileName(sequence))
    }

    /// The records of the dead-letter list, oldest first.
    func deadLetters() -> [Data] {
        var sequences: [UInt64] = []
        dead.forEachFile { name, _ in
            if let sequence = StoredEntry<Int>.sequence(of: name) { sequences.append(sequence) }
        }
        return sequences.sorted().compactMap { dead.read(StoredOutcome<Int>.fileName($0)) }
    }

    /// Removes the failure of `sequence` from the dead-letter list.
    func removeDeadLetter(_ sequence: UInt64) throws(OutboxError) {
        try dead.remove(StoredOutcome<Int>.fileName(sequence))
    }
}
