import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A private HTTP cache by RFC 9111, kept above the engine: the same on URLSession,
/// AsyncHTTPClient or any transport, and visible to the pipeline.
///
/// Off by default; one line turns it on:
/// ```swift
/// let provider = Provider<MyAPI>(options: ProviderOptions(cache: HTTPCache()))
/// ```
/// A cached answer takes the transport's place in an attempt: `prepare`, `willSend`, `adapt`
/// and `willTransmit` run first, validation and every later hook run after, and
/// ``Response/cacheOutcome`` says what the cache did. The engine's own cache is off for requests
/// that go through it, so nothing is cached twice.
///
/// What it stores: answers to GET with a final status other than 206, without `no-store` (in the
/// request or the response) or `Vary: *`, that have explicit freshness (`max-age`, `Expires`),
/// `public` or `private`, or a status cacheable by default (200, 203, 204, 300, 301, 308, 404,
/// 405, 410, 414, 501). Requests with their own conditionals or a `Range` pass through; streamed
/// requests and downloads are not cached; a successful unsafe request (POST, PUT, DELETE…) removes
/// the stored answers for its URL and for same-origin `Location` and `Content-Location`.
///
/// A provider's cache holds answers to requests with `Authorization`: give every signed-in
/// user's providers their own cache (a cache is shared only when you pass one instance to
/// several providers). See <doc:CachingAndCookies>.
public final class HTTPCache: Sendable {
    /// Where the responses are kept.
    public let storage: any HTTPCacheStorage
    /// The share of the time since `Last-Modified` a response without explicit freshness stays
    /// fresh (RFC 9111 §4.2.2's "typical" 10 %).
    public let heuristicFraction: Double
    /// The clock the cache reads: the provider's kind of clock, so a test moves the provider's,
    /// the cache's and the jar's time together.
    let clock: any ProviderClock
    /// The fetches in flight by key, which concurrent misses join.
    let fills = CacheFills()
    /// The last URL text a key was made for, and its key: a provider asks for one URL many times,
    /// and comparing texts that share their storage costs less than making the key again.
    private let lastKey = Locked<(text: String, key: String)?>(nil)

    /// Creates a cache.
    /// - Parameters:
    ///   - storage: Where responses are kept; 10 MiB in memory by default.
    ///   - heuristicFraction: The heuristic freshness share; 0.1 by default, 0 to turn it off.
    ///   - clock: The clock; the system's by default (tests pass the one they give the provider,
    ///     such as CourierTesting's `TestClock`).
    public init(
        storage: any HTTPCacheStorage = MemoryCacheStorage(), heuristicFraction: Double = 0.1,
        clock: any ProviderClock = .system
    ) {
        self.storage = storage
        self.heuristicFraction = heuristicFraction
        self.clock = clock
    }

    /// The date now, on the cache's clock.
    func now() -> Date { clock.date() }

    /// Removes every stored response.
    public func removeAll() {
        storage.removeAll()
    }

    /// Waits until the fetches and background validations in flight now have ended: for tests
    /// that check what a `stale-while-revalidate` validation stored.
    public func waitForPendingWork() async {
        await fills.waitForAll()
    }

    /// ``key(_:)-swift.type.method``, remembered for the last URL.
    func key(_ url: URL) -> String {
        let text = url.absoluteString
        if let known = lastKey.withLock({ last in last.flatMap { $0.text == text ? $0.key : nil } }) { return known }
        let key = Self.key(url)
        lastKey.withLock { $0 = (text, key) }
        return key
    }

    /// The primary key of a request for `url`: the method and the URL without its fragment.
    static func key(_ url: URL) -> String {
        let text = url.absoluteString
        // On the UTF-8 view: `firstIndex(of:)` on the `String` walks characters, about 10,000
        // instructions for a short URL on Linux (callgrind).
        guard let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) else { return "GET " + text }
        return "GET " + text[..<hash]
    }

    /// The stored variant whose `Vary` fields match `fields`, the most recent first.
    func variant(for key: String, fields: HeaderFields) -> CachedResponse? {
        var found: CachedResponse?
        for stored in storage.responses(forKey: key) where Self.matches(stored, fields) {
            if let best = found, best.responseDate >= stored.responseDate { continue }
            found = stored
        }
        return found
    }

    /// §4.1: every field `Vary` names has the same value in the request (absent matches absent);
    /// `Vary: *` never matches.
    static func matches(_ stored: CachedResponse, _ fields: HeaderFields) -> Bool {
        let names = stored.parsedFields.varyNames
        guard !names.isEmpty else { return true }
        guard !names.contains("*") else { return false }
        return names.allSatisfy { normalized(fields, $0) == stored.varyValues[$0] }
    }

    /// The lower-case field names of a response's `Vary`.
    static func varyNames(_ fields: HeaderFields) -> [String] {
        fields.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// A request field's values, joined and with spaces around commas removed, for comparison.
    static func normalized(_ fields: HeaderFields, _ name: String) -> String? {
        let values = fields.values(for: name)
        guard !values.isEmpty else { return nil }
        return values.joined(separator: ",").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    /// Stores `response` as the variant for `fields`, replacing the one it matches.
    func store(_ response: CachedResponse, key: String, fields: HeaderFields) {
        var variants = storage.responses(forKey: key).filter { !Self.matches($0, fields) }
        variants.append(response)
        storage.store(variants, forKey: key)
    }

    /// Removes the stored responses for `url`.
    func invalidate(_ url: URL) {
        storage.store([], forKey: Self.key(url))
    }
}
