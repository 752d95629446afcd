import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a provider does above its engine beyond Moya's parameters: how it follows redirects,
/// whether it keeps cookies in a jar and answers from a private cache, its resilience policy, the
/// bounds of streamed responses, and the clock all of these read.
///
/// ```swift
/// let provider = Provider<GitHub>(
///     options: ProviderOptions(cookies: CookieJar(), cache: HTTPCache(), resilience: .standard))
/// ```
/// Redirects, the jar, the cache and the policy are stages of the provider's chain (see
/// <doc:CallOrder>), so their rules hold on every ``Transport``, one you wrote included.
public struct ProviderOptions: Sendable {
    /// What to do with redirects: follow them safely (``RedirectPolicy/follow``) by default.
    public var redirects: RedirectPolicy
    /// The cookie jar that sends and stores the provider's cookies above the engine, or `nil` for
    /// the engine's own cookie handling (URLSession's `HTTPCookieStorage`; none on
    /// AsyncHTTPClient).
    public var cookies: CookieJar?
    /// The private HTTP cache that answers in the engine's place when it can, or `nil`.
    public var cache: HTTPCache?
    /// The resilience policy of the requests whose target declares none
    /// (``TargetType/resilience``), or `nil`.
    public var resilience: ResiliencePolicy?
    /// The bounds of every streamed response, unless a call names others.
    public var streamingLimits: StreamingLimits
    /// The clock that retry delays, time limits, `Retry-After` dates and the resilience policies
    /// read: the system's unless a test gives its own (give the cache and the jar the same one).
    public var clock: any ProviderClock
    /// What TLS connections must prove (pins, roots, a client certificate) for targets that
    /// declare no policy of their own (``TargetType/trustPolicy``), or `nil`: see ``TrustPolicy``.
    public var trust: TrustPolicy?

    /// Creates a provider's options.
    /// - Parameters:
    ///   - redirects: What to do with redirects; follow them (safely) by default.
    ///   - cookies: A cookie jar above the engine (see ``CookieJar``); none by default, leaving
    ///     cookies to the engine.
    ///   - cache: A private HTTP cache above the engine (see ``HTTPCache``); none by default.
    ///   - resilience: The resilience policy of targets that declare none (see
    ///     ``ResiliencePolicy``); none by default.
    ///   - streamingLimits: The bounds of streamed responses; ``StreamingLimits/standard`` by
    ///     default.
    ///   - clock: The clock the provider reads; ``SystemClock`` by default.
    ///   - trust: What TLS connections must prove (see ``TrustPolicy``); nothing beyond the
    ///     engine's usual validation by default.
    public init(
        redirects: RedirectPolicy = .follow, cookies: CookieJar? = nil, cache: HTTPCache? = nil,
        resilience: ResiliencePolicy? = nil, streamingLimits: StreamingLimits = .standard,
        clock: any ProviderClock = .system, trust: TrustPolicy? = nil
    ) {
        self.redirects = redirects
        self.cookies = cookies
        self.cache = cache
        self.resilience = resilience
        self.streamingLimits = streamingLimits
        self.clock = clock
        self.trust = trust
    }

    /// Redirects followed safely, the engine's cookies, no cache, no policy, the standard
    /// streaming limits, the system's clock.
    public static var standard: ProviderOptions { ProviderOptions() }
}
