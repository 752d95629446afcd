import Foundation

/// The URLs a provider's default endpoint mapping made from a base and a path, by the text of
/// both, so that a target asked for again skips Foundation's URL parser (about 3,000 instructions
/// a URL on Linux, a tenth of a stubbed request) and the joining of the text (about 1,000).
/// Bounded: at most ``capacity`` URLs; full, it starts over.
package final class JoinedURLs: Sendable {
    /// The most URLs kept.
    static let capacity = 256

    /// A base URL's absolute text and the path appended to it.
    private struct Key: Hashable {
        let base: String
        let path: String
    }

    private let table = Locked<[Key: URL]>([:])

    package init() {}

    /// The URL joined before from `base` and `path`, or the one `join` makes from them, kept.
    /// `join` returns `nil` for a pair it does not join as text; such a pair is not kept.
    func url(base: String, path: String, join: () -> URL?) -> URL? {
        let key = Key(base: base, path: path)
        if let known = table.withLock({ $0[key] }) { return known }
        guard let url = join() else { return nil }
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[key] = url
        }
        return url
    }

    /// How many URLs are kept (for tests).
    var count: Int { table.withLock { $0.count } }
}
