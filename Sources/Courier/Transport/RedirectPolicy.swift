import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``URLSessionTransport`` does when a server answers with a redirect.
///
/// Whatever the policy, Courier makes redirects safe first: no credential header
/// (`Authorization`, `Proxy-Authorization`, `Cookie` and the other ``Redaction/defaultHeaders``)
/// follows a redirect to another origin (scheme, host and port), and a 307 or 308 keeps its method
/// and resends its body, uploads included (Courier follows those itself, because URLSession on
/// Linux drops the body). The request a policy returns obeys ``HeaderFieldRules`` too: framing
/// headers are removed, and a request with an invalid header is not followed (the 3xx is the answer).
/// ```swift
/// let transport = URLSessionTransport(redirectPolicy: .refuse)
/// let stamped = URLSessionTransport(redirectPolicy: .modify { request, _ in
///     var request = request
///     request.setValue("1", forHTTPHeaderField: "X-Redirected")
///     return request
/// })
/// ```
public struct RedirectPolicy: Sendable {
    private let decide: @Sendable (_ redirected: URLRequest, _ response: HTTPURLResponse) -> URLRequest?

    private init(_ decide: @escaping @Sendable (URLRequest, HTTPURLResponse) -> URLRequest?) {
        self.decide = decide
    }

    /// Follows redirects (made safe as described above).
    public static let follow = RedirectPolicy { request, _ in request }

    /// Never follows: the 3xx response is the answer.
    public static let refuse = RedirectPolicy { _, _ in nil }

    /// Follows the request `transform` returns (from the request made safe), or none for `nil`.
    /// - Parameter transform: Changes or refuses the redirected request.
    /// - Returns: The policy.
    public static func modify(
        _ transform: @escaping @Sendable (_ redirected: URLRequest, _ response: HTTPURLResponse) -> URLRequest?
    ) -> RedirectPolicy {
        RedirectPolicy(transform)
    }

    /// Whether URLSession can be left to follow a redirect with this status: not a 307 or 308,
    /// whose body it would drop on Linux, so Courier follows those itself.
    static func sessionMayFollow(_ statusCode: Int) -> Bool {
        statusCode != 307 && statusCode != 308
    }

    /// The request to follow for a redirect of `current` to `redirected`, or `nil` to stop there.
    func request(redirecting current: URLRequest?, to redirected: URLRequest, response: HTTPURLResponse) -> URLRequest?
    {
        var next = redirected
        if !Self.sameOrigin(current?.url, next.url) {
            for header in Redaction.defaultHeaders {
                next.setValue(nil, forHTTPHeaderField: header)
            }
        }
        if !Self.sessionMayFollow(response.statusCode), let current {
            next.httpMethod = current.httpMethod
            next.httpBody = current.httpBody
        }
        return decide(next, response).flatMap { try? HeaderFieldRules.checked($0) }
    }

    private static func sameOrigin(_ first: URL?, _ second: URL?) -> Bool {
        guard let first, let second else { return false }
        return first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased() && port(of: first) == port(of: second)
    }

    private static func port(of url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
