import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a request asks of the cache: its `Cache-Control` (or `Pragma`) directives, with a
/// `URLRequest.cachePolicy` mapped onto them, and whether it must bypass the cache.
struct CacheRequest {
    let directives: CacheDirectives
    /// `max-stale` with no value, from `.returnCacheDataElseLoad` or `.returnCacheDataDontLoad`.
    let acceptsAnyAge: Bool
    let onlyIfCached: Bool
    let noCache: Bool
    let noStore: Bool
    /// The request carries its own conditionals or a range: the cache passes it through.
    let bypasses: Bool

    init(_ request: URLRequest, fields: HeaderFields) {
        // A request without fields (the usual one) has no directives to read.
        directives = fields.isEmpty ? CacheDirectives(lines: []) : CacheDirectives(fields, isRequest: true)
        let policy = request.cachePolicy
        acceptsAnyAge =
            policy == .returnCacheDataElseLoad || policy == .returnCacheDataDontLoad
            || directives.isUnqualified("max-stale")
        onlyIfCached = policy == .returnCacheDataDontLoad || directives.has("only-if-cached")
        noCache =
            policy == .reloadIgnoringLocalCacheData || policy == .reloadIgnoringLocalAndRemoteCacheData
            || directives.has("no-cache")
        noStore = directives.has("no-store")
        bypasses =
            !fields.isEmpty
            && ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"]
                .contains { fields[$0] != nil }
    }

    /// Whether `freshness` lets the stored response be served without the network, and if it
    /// is stale, why.
    func allows(_ freshness: CacheFreshness) -> Allowance {
        guard !noCache, !freshness.directives.isUnqualified("no-cache") else { return .no }
        let age = freshness.currentAge
        // RFC 8246: a fresh immutable response is not revalidated for a request's max-age.
        if freshness.isFresh, freshness.directives.has("immutable") { return .fresh }
        if let maxAge = directives.seconds("max-age"), age > TimeInterval(maxAge.value(invalid: 0)) { return .no }
        if let minFresh = directives.seconds("min-fresh"),
            freshness.lifetime - age < TimeInterval(minFresh.value(invalid: Int.max))
        {
            return .no
        }
        if freshness.isFresh { return .fresh }
        guard !freshness.forbidsStale else { return .no }
        if acceptsAnyAge { return .stale }
        if let maxStale = directives.seconds("max-stale"),
            freshness.staleness <= TimeInterval(maxStale.value(invalid: 0))
        {
            return .stale
        }
        return .no
    }

    /// What ``allows(_:)`` decides.
    enum Allowance { case fresh, stale, no }

    /// Whether a `stale-if-error` window (the request's or the response's) covers `freshness`.
    func allowsOnError(_ freshness: CacheFreshness) -> Bool {
        guard !freshness.forbidsStale else { return false }
        let window = [directives.seconds("stale-if-error"), freshness.directives.seconds("stale-if-error")]
            .compactMap { $0?.value(invalid: -1) }.max()
        return window.map { freshness.staleness <= TimeInterval($0) } ?? false
    }
}
