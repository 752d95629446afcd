import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The transport of every provider created without one: one session, so one connection pool
    /// and one cookie store, for the whole process (Moya's providers share Alamofire's default
    /// session the same way).
    ///
    /// It uses ``defaultConfiguration``. A provider that needs another configuration (a URL cache,
    /// a proxy, other headers) takes its own transport:
    /// `Provider<API>(transport: URLSessionTransport(configuration: …))`.
    public static let shared = URLSessionTransport()

    /// An ephemeral configuration without a URL cache, sending ``defaultHeaders``: cookies in
    /// memory, nothing written to the home folder (on Linux the default configuration writes
    /// cookie and cache files there).
    ///
    /// The cache is left out because on Linux a task's first steps wait for a cache lookup, and a
    /// cancellation that waits behind it can reach URLSession after the task completed, which stops
    /// the process (swift-corelibs-foundation SR-11310). So ``TargetType/cachePolicy`` has no
    /// cache to use with this configuration; pass one with a `urlCache` (for example
    /// ``moyaCompatibleConfiguration``) to cache responses on Apple platforms. On Linux
    /// (FoundationNetworking 6.3.1) such a cache was measured to serve nothing: a response fresh
    /// for ten minutes is fetched again, and a stale one is never revalidated (no `If-None-Match`
    /// or `If-Modified-Since` is sent).
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = defaultHeaders
        return configuration
    }

    /// The configuration Moya gets from Alamofire: `URLSessionConfiguration.default` (the
    /// system's URL cache and shared cookie storage, persisted) with ``defaultHeaders``.
    ///
    /// ```swift
    /// let transport = URLSessionTransport(configuration: URLSessionTransport.moyaCompatibleConfiguration)
    /// let provider = Provider<GitHub>(transport: transport)
    /// ```
    /// On Linux this configuration writes cookie and cache files under the home folder, and its
    /// cache exposes the cancellation fault described in ``defaultConfiguration``: prefer the
    /// default there unless responses must be cached.
    public static var moyaCompatibleConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = defaultHeaders
        return configuration
    }

    /// The headers every request of a configuration made by Courier carries unless the request
    /// sets its own, as Alamofire's defaults: a `User-Agent` naming the program and Courier, and
    /// an `Accept-Language` with the user's preferred languages.
    ///
    /// For example `User-Agent: courier-tour (Linux 6.1.0) Courier/0.1.0` and
    /// `Accept-Language: en;q=1.0`. `Accept-Encoding` is left to the platform, which lists exactly
    /// the encodings it decodes (`deflate, gzip, br, zstd` on Linux with libcurl 7.88; gzip,
    /// deflate and br on Apple platforms). These headers are added by the session, so plugins do
    /// not see them in the request, as with Moya; they see them in
    /// ``PreparedRequest/sessionHeaders`` (``sessionHeaders``), and the logger shows them.
    public static let defaultHeaders: [String: String] = [
        "User-Agent": DefaultHeaders.userAgent(),
        "Accept-Language": DefaultHeaders.acceptLanguage(Locale.preferredLanguages),
    ]
}
