import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cookies kept above the engine, by RFC 6265's rules, so that a provider sends the same cookies
/// on URLSession, AsyncHTTPClient or any other transport.
///
/// Give a provider a jar and it stores every response's `Set-Cookie` (each redirect hop's too)
/// and sends the matching cookies with every request:
/// ```swift
/// let provider = Provider<MyAPI>(options: ProviderOptions(cookies: CookieJar()))
/// ```
/// The engine's own cookie handling is then off, so nothing is sent twice. A request with
/// `httpShouldHandleCookies = false` (or a target whose ``TargetType/handlesCookies`` is `false`)
/// neither sends nor stores cookies. Share one jar between providers to share their cookies.
///
/// A jar lives in memory; ``init(persistingTo:publicSuffix:clock:)`` with a file keeps its
/// persistent cookies (not session cookies) across restarts, written atomically after each
/// change. Limits: 4,096 bytes of name and value per cookie, 50 cookies per domain and 3,000 in
/// all; past them the least recently used go first. Cookie values never appear in a
/// description or a log.
public final class CookieJar: Sendable {
    /// The most cookies kept for one domain.
    public static let maximumPerDomain = 50
    /// The most cookies kept in all.
    public static let maximumCount = 3_000

    private let state: Locked<Contents>
    private let file: URL?
    private let isPublicSuffix: @Sendable (String) -> Bool
    /// The clock the jar reads (see ``init(persistingTo:publicSuffix:clock:)``).
    private let clock: any ProviderClock

    /// The jar's cookies by identity, and the next creation order to hand out.
    struct Contents {
        var cookies: [Cookie.Identity: StoredCookie]
        var nextOrder: UInt64
    }

    /// A stored cookie with the time it was last sent, which orders eviction, and its place
    /// among cookies created at the same instant, which orders the `Cookie` field.
    struct StoredCookie: Codable {
        var cookie: Cookie
        var lastAccess: Date
        var order: UInt64
    }

    /// Creates a jar.
    /// - Parameters:
    ///   - file: Where to keep persistent cookies across restarts; in memory only by default. A
    ///     missing, unreadable or corrupt file starts an empty jar (and is replaced on the next
    ///     change).
    ///   - publicSuffix: Whether a domain is a public suffix, for which no cookie may be set
    ///     (see ``CookieDomain``); a single label or a built-in suffix by default.
    ///   - clock: The clock; the system's by default (tests pass the one they give the provider,
    ///     such as CourierTesting's `TestClock`).
    public init(
        persistingTo file: URL? = nil,
        publicSuffix: @escaping @Sendable (String) -> Bool = CookieDomain.isBuiltInPublicSuffix,
        clock: any ProviderClock = .system
    ) {
        self.file = file
        self.isPublicSuffix = publicSuffix
        self.clock = clock
        let loaded = file.flatMap { try? Data(contentsOf: $0) }.flatMap {
            try? JSONDecoder().decode(Stored.self, from: $0)
        }
        let current = clock.date()
        let kept = (loaded?.cookies ?? []).filter { $0.cookie.expires != nil && !$0.cookie.isExpired(at: current) }
        state = Locked(
            Contents(
                cookies: Dictionary(kept.map { ($0.cookie.identity, $0) }, uniquingKeysWith: { $1 }),
                nextOrder: (kept.map(\.order).max() ?? 0) + 1))
    }

    /// Whether the jar keeps its persistent cookies in a file, written after each change.
    var persists: Bool { file != nil }

    /// Every cookie the jar holds that has not expired, in no particular order.
    public var cookies: [Cookie] {
        let current = clock.date()
        return state.withLock { $0.cookies.values.map(\.cookie).filter { !$0.isExpired(at: current) } }
    }

    /// The cookies a request to `url` carries, in the RFC's order: longer paths first, then
    /// older cookies first.
    /// - Parameter url: The request's URL.
    /// - Returns: The matching cookies; sending them counts as using them.
    public func cookies(for url: URL) -> [Cookie] {
        let host = CookieDomain.canonicalHost(url)
        let path = CookieDomain.requestPath(of: url)
        let secure = CookieDomain.isSecure(url)
        let current = clock.date()
        return state.withLock { contents in
            var matching: [StoredCookie] = []
            for (identity, entry) in contents.cookies {
                let cookie = entry.cookie
                guard !cookie.isExpired(at: current), !cookie.isSecure || secure,
                    cookie.isHostOnly ? host == cookie.domain : CookieDomain.matches(host: host, domain: cookie.domain),
                    CookieDomain.pathMatches(path, cookiePath: cookie.path)
                else { continue }
                contents.cookies[identity]?.lastAccess = current
                matching.append(entry)
            }
            return matching.sorted { first, second in
                let (one, other) = (first.cookie, second.cookie)
                return (one.path.count, other.created, second.order) > (other.path.count, one.created, first.order)
            }.map(\.cookie)
        }
    }

    /// The `Cookie` field value for a request to `url`, or `nil` when no cookie matches.
    /// - Parameter url: The request's URL.
    /// - Returns: `name=value` pairs joined with `; `.
    public func headerValue(for url: URL) -> String? {
        let matching = cookies(for: url)
        return matching.isEmpty ? nil : matching.map(\.pair).joined(separator: "; ")
    }

    /// Stores the cookies that `Set-Cookie` field values set, as a response from `url` sets them.
    /// - Parameters:
    ///   - setCookieValues: Each `Set-Cookie` field's value.
    ///   - url: The URL of the response that carried them.
    public func store(_ setCookieValues: [String], from url: URL) {
        guard !setCookieValues.isEmpty else { return }
        let parser = SetCookieParser(url: url, now: clock.date(), isPublicSuffix: isPublicSuffix)
        let cookies = setCookieValues.compactMap(parser.cookie(from:))
        guard !cookies.isEmpty else { return }
        let secureOrigin = CookieDomain.isSecure(url)
        state.withLock { contents in
            for cookie in cookies { Self.insert(cookie, into: &contents, now: parser.now, secureOrigin: secureOrigin) }
            Self.evict(&contents.cookies, domains: Set(cookies.map(\.domain)), now: parser.now)
            // Written under the lock, so that files are written in the order of the changes.
            if let file {
                Self.write(Stored(cookies: contents.cookies.values.filter { $0.cookie.expires != nil }), to: file)
            }
        }
    }

    /// Stores the `Set-Cookie` fields of a response from `url`.
    func store(from fields: HeaderFields, url: URL) {
        store(SetCookieParser.lines(in: fields), from: url)
    }

    /// Removes every cookie.
    public func removeAll() {
        state.withLock { contents in
            contents.cookies.removeAll()
            if let file { Self.write(Stored(cookies: []), to: file) }
        }
    }

    /// §5.3 steps 11–12 and RFC 6265bis step 16: replace a cookie of the same identity, keeping
    /// its creation time; an expired cookie only deletes; a cookie from an insecure origin never
    /// overlays a secure one of the same name.
    private static func insert(
        _ cookie: Cookie, into contents: inout Contents, now: Date, secureOrigin: Bool
    ) {
        if !secureOrigin && !cookie.isSecure {
            let shadowsSecure = contents.cookies.values.contains { entry in
                entry.cookie.isSecure && entry.cookie.name == cookie.name
                    && (CookieDomain.matches(host: entry.cookie.domain, domain: cookie.domain)
                        || CookieDomain.matches(host: cookie.domain, domain: entry.cookie.domain))
                    && CookieDomain.pathMatches(cookie.path, cookiePath: entry.cookie.path)
            }
            if shadowsSecure { return }
        }
        let old = contents.cookies.removeValue(forKey: cookie.identity)
        guard !cookie.isExpired(at: now) else { return }
        let order = old?.order ?? contents.nextOrder
        if old == nil { contents.nextOrder += 1 }
        contents.cookies[cookie.identity] = StoredCookie(
            cookie: cookie.created(old?.cookie.created ?? now), lastAccess: now, order: order)
    }

    /// The RFC's eviction, once a limit is passed: expired cookies, then the least recently used
    /// of a crowded domain (of those `domains` just stored for), then the least recently used of
    /// all.
    private static func evict(_ stored: inout [Cookie.Identity: StoredCookie], domains: Set<String>, now: Date) {
        let counts = stored.values.reduce(into: [String: Int]()) { counts, entry in
            if domains.contains(entry.cookie.domain) { counts[entry.cookie.domain, default: 0] += 1 }
        }
        guard stored.count > maximumCount || counts.values.contains(where: { $0 > maximumPerDomain }) else { return }
        stored = stored.filter { !$0.value.cookie.isExpired(at: now) }
        let crowded = Set(counts.filter { $0.value > maximumPerDomain }.keys)
        let byDomain = Dictionary(
            grouping: stored.values.filter { crowded.contains($0.cookie.domain) }, by: \.cookie.domain)
        for (_, entries) in byDomain where entries.count > maximumPerDomain {
            for entry in entries.sorted(by: { $0.lastAccess < $1.lastAccess }).prefix(entries.count - maximumPerDomain)
            {
                stored[entry.cookie.identity] = nil
            }
        }
        guard stored.count > maximumCount else { return }
        for entry in stored.values.sorted(by: { $0.lastAccess < $1.lastAccess }).prefix(stored.count - maximumCount) {
            stored[entry.cookie.identity] = nil
        }
    }

    /// The file's contents: a format version and the persistent cookies.
    private struct Stored: Codable {
        var version = 1
        var cookies: [StoredCookie]
    }

    /// Writes `stored` to `file` atomically (a whole new file, renamed into place).
    private static func write(_ stored: Stored, to file: URL) {
        guard let data = try? JSONEncoder().encode(stored) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
