import Foundation

/// Ending an entry: its outcome stored (before the entry leaves), then delivered.
extension Outbox {
    /// Ends the entry of `sequence` (`size` bytes on disk) as `verdict` says; `false` when its
    /// outcome could not be stored (a full disk): the entry then stays, to be ended later. `cut`:
    /// the answer's body was cut short (past the limit, or by a failure after its 2xx head).
    func end(
        _ sequence: UInt64, _ size: Int, _ entry: StoredEntry<Target>, _ verdict: Verdict, cut: Bool = false
    ) -> Bool {
        guard case .ends(let kind, let response, let failure) = verdict else { return false }
        let body = response?.data ?? Data()
        let stored = StoredOutcome(
            id: entry.id, sequence: sequence, key: entry.key, kind: kind.rawValue, status: response?.statusCode,
            headers: Self.storable(response?.headerFields), body: body.prefix(options.maximumStoredBody),
            truncated: cut || body.count > options.maximumStoredBody, failure: failure, attempts: entry.attempts,
            enqueued: entry.enqueued, finished: provider.clock.date(), target: entry.target)
        return record(stored, sequence: sequence, size: size, delivered: kind == .delivered) {
            observe(.ended(kind), entry.id, entry.target)
        }
    }

    /// Ends the entry of `sequence` whose stored `data` cannot be decoded as a `Target`.
    func end(_ sequence: UInt64, size: Int, unreadable data: Data) -> Bool {
        let stored = StoredOutcome<Target>(
            id: Self.identifier(in: data) ?? UUID(), sequence: sequence, key: "",
            kind: OutboxOutcome<Target>.Kind.unreadable.rawValue, status: nil, headers: [:], body: Data(),
            truncated: false, failure: "its stored target does not decode as \(Target.self)", attempts: 0,
            enqueued: provider.clock.date(), finished: provider.clock.date(), target: nil)
        return record(stored, sequence: sequence, size: size, delivered: false) {
            observe(.ended(.unreadable), stored.id, nil)
        }
    }

    /// Stores `stored` and removes its entry; `ended` runs before a reader can see the outcome.
    private func record(
        _ stored: StoredOutcome<Target>, sequence: UInt64, size: Int, delivered: Bool, ended: () -> Void
    ) -> Bool {
        guard let data = try? OutboxStore.encoder().encode(stored),
            (try? store.finish(
                sequence, size: size, outcome: data, delivered: delivered,
                keeping: options.maximumUnacknowledgedOutcomes, ended: ended)) != nil
        else { return false }
        finished.raise()
        return true
    }

    /// The header fields an outcome keeps: all but `Set-Cookie` (the jar has them; an outcome is
    /// written to disk).
    private static func storable(_ fields: HeaderFields?) -> [String: String] {
        var kept = fields ?? [:]
        kept.removeAll(named: "Set-Cookie")
        kept.removeAll(named: "Set-Cookie2")
        return kept.dictionary
    }

    /// The `id` of an entry's stored JSON, when that much of it reads.
    private static func identifier(in data: Data) -> UUID? {
        try? JSONDecoder().decode(StoredIdentifier.self, from: data).id
    }
}

/// The identifier of a stored entry or outcome, read alone (from one whose target does not
/// decode).
struct StoredIdentifier: Decodable {
    let id: UUID
}
