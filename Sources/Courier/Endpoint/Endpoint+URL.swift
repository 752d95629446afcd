import Foundation

extension Endpoint {
    /// A copy that goes to `url` instead; method, task, headers, options and sample stay.
    /// - Parameter url: The new URL.
    /// - Returns: The new endpoint.
    public func replacing(url: URL) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            httpHeaderFields: httpHeaderFields, options: options)
    }

    /// A copy that goes to the URL string `url` instead, the form Moya's `Endpoint(url:)` takes;
    /// method, task, headers, options and sample stay. A string that is not a URL fails when the
    /// request is built, as it does in the initialiser.
    /// - Parameter url: The new absolute URL string.
    /// - Returns: The new endpoint.
    public func replacing(url: String) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            httpHeaderFields: httpHeaderFields, options: options)
    }

    /// A copy that goes to another origin — the scheme, host and port of `origin` — keeping its
    /// path and query: a whole provider pointed at staging, or one request at a CDN host.
    /// ```swift
    /// let staging = Provider<GitHub>(endpointClosure: { target in
    ///     Provider.defaultEndpointMapping(for: target).replacing(origin: URL(string: "https://staging.example.com")!)
    /// })
    /// ```
    /// - Parameter origin: A URL whose scheme, host and port are used (its path is not).
    /// - Returns: The new endpoint; this one unchanged when its URL cannot be parsed (building the
    ///   request then fails with the usual error).
    public func replacing(origin: URL) -> Endpoint {
        guard let current = resolvedURL ?? URL(string: url),
            var components = URLComponents(url: current, resolvingAgainstBaseURL: false),
            let target = URLComponents(url: origin, resolvingAgainstBaseURL: false)
        else { return self }
        components.scheme = target.scheme
        components.host = target.host
        components.port = target.port
        guard let moved = components.url else { return self }
        return replacing(url: moved)
    }
}
