import Courier
import Foundation

/// The entries of a HAR file being written: kept in the order their exchanges began, the file
/// rewritten in one rename after each entry, so that a test that stops early leaves a whole file.
final class HARArchive: Sendable {
    private struct State {
        var entries: [(order: Int, entry: HAR.Entry)] = []
        var next = 0
    }

    /// Where the archive is written.
    let url: URL
    private let state: Locked<State>

    /// An archive at `url`, starting with `entries` (those of a file being extended).
    init(url: URL, entries: [HAR.Entry] = []) {
        self.url = url
        var state = State()
        for entry in entries {
            state.entries.append((state.next, entry))
            state.next += 1
        }
        self.state = Locked(state)
    }

    /// A place for the next exchange, in the order exchanges begin.
    func reserve() -> Int {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Adds the entry of the exchange that got `order`, and writes the file (under the lock, so
    /// that the last file written has every entry).
    func add(_ entry: HAR.Entry, order: Int) {
        state.withLock { state in
            state.entries.append((order, entry))
            state.entries.sort { $0.order < $1.order }
            write(state.entries.map(\.entry))
        }
    }

    /// The entries so far.
    var entries: [HAR.Entry] { state.withLock { $0.entries.map(\.entry) } }

    private func write(_ entries: [HAR.Entry]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(HAR.File(log: HAR.Log(entries: entries))) else { return }
        _ = data.writeReplacing(url)
    }

    /// The entries of the HAR file at `url`.
    /// - Throws: ``HARReplayError/unreadable(_:reason:)`` when it cannot be read or is not HAR.
    static func read(_ url: URL) throws(HARReplayError) -> [HAR.Entry] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(url, reason: "\(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(HAR.File.self, from: data).log.entries
        } catch {
            throw .unreadable(url, reason: "not HAR 1.2: \(error)")
        }
    }
}
