import Foundation

/// The outcomes of an ``Outbox``'s entries, in the order the entries were enqueued: first those
/// stored and not acknowledged (by an earlier process too), then each new one as it comes. Ends
/// when the outbox closes. Each iteration starts from the first outcome not acknowledged, so an
/// outcome is delivered again until ``Outbox/acknowledge(_:)`` is called. Outcomes are read from
/// disk one at a time: memory does not grow with the outcomes waiting.
public struct OutboxOutcomes<Target: TargetType & Codable>: AsyncSequence, Sendable {
    /// An outcome.
    public typealias Element = OutboxOutcome<Target>

    let outbox: Outbox<Target>

    /// Makes an iterator that starts at the first outcome not acknowledged.
    public func makeAsyncIterator() -> Iterator {
        Iterator(outbox: outbox)
    }

    /// Reads the outcomes one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        let outbox: Outbox<Target>
        /// The sequence of the last outcome delivered by this iterator.
        var last: UInt64 = 0

        /// The next outcome; `nil` once the outbox is closed (or the task cancelled).
        public mutating func next() async -> OutboxOutcome<Target>? {
            while !Task.isCancelled {
                let generation = outbox.finished.generation
                if let (sequence, outcome) = outbox.outcome(after: last) {
                    last = sequence
                    if let outcome { return outcome }
                    continue
                }
                if outbox.isClosed.value { return nil }
                await outbox.finished.wait(since: generation)
            }
            return nil
        }
    }
}

extension Outbox {
    /// The outcomes of the entries, stored ones first; see ``OutboxOutcomes``.
    public var outcomes: OutboxOutcomes<Target> {
        OutboxOutcomes(outbox: self)
    }

    /// The first outcome to deliver after `sequence`: its sequence, and the outcome (`nil` when
    /// its record was acknowledged meanwhile, or cannot be read now); `nil` when there is none
    /// yet. A record that reads but does not decode is delivered as unreadable.
    func outcome(after sequence: UInt64) -> (UInt64, OutboxOutcome<Target>?)? {
        let next = store.counters.withLock { counters -> UInt64? in
            // The first greater than `sequence`, by halves: the list is in order.
            var (low, high) = (0, counters.outcomes.count)
            while low < high {
                let middle = (low + high) / 2
                if counters.outcomes[middle] > sequence { high = middle } else { low = middle + 1 }
            }
            return low < counters.outcomes.count ? counters.outcomes[low] : nil
        }
        guard let next else { return nil }
        guard case .data(let data) = store.outcome(next) else { return (next, nil) }
        guard let stored = try? OutboxStore.decoder().decode(StoredOutcome<Target>.self, from: data),
            let outcome = OutboxOutcome(stored)
        else { return (next, OutboxOutcome(unreadableRecord: next, at: provider.clock.date())) }
        return (next, outcome)
    }
}
