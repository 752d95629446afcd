import Foundation

/// An ``HTTPCacheStorage`` in memory, bounded in bytes: past the bound, the least recently used
/// keys go first. A key whose responses alone exceed an eighth of the bound is not stored.
public final class MemoryCacheStorage: HTTPCacheStorage {
    /// The most bytes the stored responses may take.
    public let maximumBytes: Int

    private let state = Locked(Contents())

    /// The entries, their total size, and a use counter that orders eviction.
    private struct Contents {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// One key's responses, their size and their last use.
    private struct Entry {
        var responses: [CachedResponse]
        var bytes: Int
        var lastUse: UInt64
    }

    /// Creates a storage.
    /// - Parameter maximumBytes: The most bytes it may hold; 10 MiB by default.
    public init(maximumBytes: Int = 10 * 1_024 * 1_024) {
        self.maximumBytes = max(0, maximumBytes)
    }

    /// The bytes the stored responses take now.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The responses stored for `key`.
    public func responses(forKey key: String) -> [CachedResponse] {
        state.withLock { contents in
            // One lookup: the entry's use is updated where it is.
            guard let index = contents.entries.index(forKey: key) else { return [] }
            contents.clock += 1
            contents.entries.values[index].lastUse = contents.clock
            return contents.entries.values[index].responses
        }
    }

    /// Replaces the responses stored for `key`, evicting the least recently used past the bound.
    public func store(_ responses: [CachedResponse], forKey key: String) {
        let size = responses.reduce(key.utf8.count) { $0 + $1.size }
        state.withLock { contents in
            if let old = contents.entries.removeValue(forKey: key) { contents.bytes -= old.bytes }
            guard !responses.isEmpty, size <= maximumBytes / 8 else { return }
            contents.clock += 1
            contents.entries[key] = Entry(responses: responses, bytes: size, lastUse: contents.clock)
            contents.bytes += size
            guard contents.bytes > maximumBytes else { return }
            // Down to 90 % of the bound, so that the sort is paid once per many stores.
            let target = maximumBytes - maximumBytes / 10
            for (victim, entry) in contents.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard contents.bytes > target else { break }
                contents.entries[victim] = nil
                contents.bytes -= entry.bytes
            }
        }
    }

    /// Removes everything.
    public func removeAll() {
        state.withLock { $0 = Contents() }
    }
}
