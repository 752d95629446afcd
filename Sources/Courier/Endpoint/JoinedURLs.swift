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

    /// The kept URLs, and the last one asked for: a provider often asks for one URL many times
    /// in a row, and comparing two strings that share their storage (a target's literals) costs
    /// less than hashing them.
    private struct State {
        var table: [Key: URL] = [:]
        var last: (key: Key, url: URL)?
    }

    private let state = Locked(State())

    /// The URLs of the provider whose endpoint closure is running, so that
    /// `Provider.defaultEndpointMapping(for:)` called from a closure of the caller's (the usual
    /// way to change one thing of the default) finds what that provider joined before: without
    /// them, every such request joined and parsed its URL again (about 3,000 instructions).
    @TaskLocal static var current: JoinedURLs?

    package init() {}

    /// The URL joined before from `base` and `path`, or the one `join` makes from them, kept.
    /// `join` returns `nil` for a pair it does not join as text; such a pair is not kept.
    func url(base: String, path: String, join: () -> URL?) -> URL? {
        let key = Key(base: base, path: path)
        let known = state.withLock { state -> URL? in
            if let last = state.last, last.key == key { return last.url }
            guard let url = state.table[key] else { return nil }
            state.last = (key, url)
            return url
        }
        if let known { return known }
        guard let url = join() else { return nil }
        state.withLock { state in
            if state.table.count >= Self.capacity { state.table.removeAll(keepingCapacity: true) }
            state.table[key] = url
            state.last = (key, url)
        }
        return url
    }

    /// How many URLs are kept (for tests).
    var count: Int { state.withLock { $0.table.count } }
}
