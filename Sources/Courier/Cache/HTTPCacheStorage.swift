import Foundation

/// Where an ``HTTPCache`` keeps its responses: Courier's ``MemoryCacheStorage`` and
/// ``DiskCacheStorage``, or your own.
///
/// A key is a request's method and URL; it holds the responses stored for it, one per variant
/// (a response with `Vary` may be stored once per combination of the request fields it names).
/// A storage decides what to evict and when; it must stay within its own bounds. Calls come from
/// any thread, concurrently.
public protocol HTTPCacheStorage: Sendable {
    /// The responses stored for `key`, or none.
    /// - Parameter key: The primary key: the method and URL.
    /// - Returns: The stored variants; reading counts as a use for eviction.
    func responses(forKey key: String) -> [CachedResponse]

    /// Replaces the responses stored for `key`; an empty array removes them.
    /// - Parameters:
    ///   - responses: The variants to keep.
    ///   - key: The primary key.
    func store(_ responses: [CachedResponse], forKey key: String)

    /// Removes everything.
    func removeAll()
}
