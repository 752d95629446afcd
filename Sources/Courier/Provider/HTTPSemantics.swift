import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a provider does as an HTTP client above its engine, whatever the engine: how it follows
/// redirects, whether it keeps cookies in a jar of its own, whether it answers from a private
/// cache.
///
/// ```swift
/// let provider = Provider<GitHub>(
///     http: HTTPSemantics(redirects: .refuse, cookies: CookieJar(), cache: HTTPCache()))
/// ```
/// Each is a stage of the provider's chain (see <doc:CallOrder>), so its rules hold on every
/// ``Transport``, one you wrote included.
public struct HTTPSemantics: Sendable {
    /// What to do with redirects: follow them safely (``RedirectPolicy/follow``) by default.
    public var redirects: RedirectPolicy
    /// The cookie jar that sends and stores the provider's cookies above the engine, or `nil` for
    /// the engine's own cookie handling (URLSession's `HTTPCookieStorage`; none on
    /// AsyncHTTPClient).
    public var cookies: CookieJar?
    /// The private HTTP cache that answers in the engine's place when it can, or `nil`.
    public var cache: HTTPCache?

    /// Creates the provider's HTTP semantics.
    /// - Parameters:
    ///   - redirects: What to do with redirects; follow them (safely) by default.
    ///   - cookies: A cookie jar above the engine (see ``CookieJar``); none by default, leaving
    ///     cookies to the engine.
    ///   - cache: A private HTTP cache above the engine (see ``HTTPCache``); none by default.
    public init(redirects: RedirectPolicy = .follow, cookies: CookieJar? = nil, cache: HTTPCache? = nil) {
        self.redirects = redirects
        self.cookies = cookies
        self.cache = cache
    }

    /// Redirects followed safely, the engine's cookies, no cache.
    public static var standard: HTTPSemantics { HTTPSemantics() }
}
