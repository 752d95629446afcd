import Foundation

/// The URLs a provider's default endpoint mapping made from a base and a path, by their text, so
/// that a target asked for again skips Foundation's URL parser (about 3,000 instructions a URL on
/// Linux, a tenth of a stubbed request). Bounded: at most ``capacity`` URLs; full, it starts over.
package final class JoinedURLs: Sendable {
    /// The most URLs kept.
    static let capacity = 256

    private let table = Locked<[String: URL]>([:])

    package init() {}

    /// The URL of `text`, parsed once; `nil` when Foundation does not take the text.
    func url(for text: String) -> URL? {
        if let known = table.withLock({ $0[text] }) { return known }
        guard let url = URL(string: text) else { return nil }
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[text] = url
        }
        return url
    }

    /// How many URLs are kept (for tests).
    var count: Int { table.withLock { $0.count } }
}
