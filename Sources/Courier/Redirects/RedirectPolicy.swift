import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a provider does when a server answers with a redirect (``ProviderOptions/redirects``).
///
/// Whatever the policy, Courier makes redirects safe first: no credential header
/// (`Authorization`, `Proxy-Authorization`, `Cookie` and the other ``Redaction/defaultHeaders``,
/// and any whose name holds a word of ``Redaction/defaultCredentialWords``, such as
/// `PRIVATE-TOKEN`) follows a redirect to another origin (scheme, host and port), a 307 or 308 keeps its method
/// and resends its body, uploads included, only http and https are followed, and at most
/// 20 in a row (URLSession's own limit). A redirect from `https` to plain `http` is not followed:
/// the request fails with ``RedirectError/downgrade(from:to:)`` before anything is sent in clear,
/// unless the policy allows it (``allowingDowngrade()``). The request a policy returns obeys
/// ``HeaderFieldRules`` too: framing headers are removed, and a request with an invalid header is
/// not followed (the 3xx is the answer). Courier follows every redirect itself, in a stage above
/// the engine, so these rules hold whatever engine sends the requests, one you wrote included.
/// ```swift
/// let refusing = Provider<MyAPI>(options: ProviderOptions(redirects: .refuse))
/// let stamped = Provider<MyAPI>(options: ProviderOptions(redirects: .modify { request, _ in
///     var request = request
///     request.setValue("1", forHTTPHeaderField: "X-Redirected")
///     return request
/// }))
/// ```
public struct RedirectPolicy: Sendable {
    private let decide: @Sendable (_ redirected: URLRequest, _ response: HTTPURLResponse) -> URLRequest?
    /// Whether every redirect is followed (``follow``): a transport then never hands a redirect's
    /// own body to the caller, and may read answers in a way that drops it.
    let followsEveryRedirect: Bool
    /// Whether a redirect from `https` to `http` is followed.
    private(set) var allowsDowngrade = false

    private init(
        followsEveryRedirect: Bool = false, _ decide: @escaping @Sendable (URLRequest, HTTPURLResponse) -> URLRequest?
    ) {
        self.decide = decide
        self.followsEveryRedirect = followsEveryRedirect
    }

    /// This policy, following redirects from `https` to plain `http` too (which every policy
    /// refuses by default, failing with ``RedirectError/downgrade(from:to:)``). Only for a server
    /// you trust on a network you trust: the request, its body and cookies then cross in clear.
    /// ```swift
    /// let legacy = ProviderOptions(redirects: .follow.allowingDowngrade())
    /// ```
    /// - Returns: The policy.
    public func allowingDowngrade() -> RedirectPolicy {
        var policy = self
        policy.allowsDowngrade = true
        return policy
    }

    /// Follows redirects (made safe as described above).
    public static let follow = RedirectPolicy(followsEveryRedirect: true) { request, _ in request }

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

    /// The status codes that redirect: 301, 302, 303, 307 and 308.
    public static let redirectStatusCodes: Set<Int> = [301, 302, 303, 307, 308]

    /// The request that follows `response`, a redirect of `request`, made safe; `nil` when the
    /// response is the answer: not a redirect, no usable `Location`, a scheme other than http or
    /// https, a refusal of the policy, or a request ``HeaderFieldRules`` refuses; `nil` too for a
    /// downgrade from `https` to `http` the policy does not allow (a provider fails the request
    /// with ``RedirectError/downgrade(from:to:)`` there).
    ///
    /// A relative `Location` is resolved against the request's URL. 301 and 302 turn a `POST`,
    /// and 303 anything but a `HEAD`, into a `GET` without a body, as browsers and URLSession do;
    /// 307 and 308 keep the method and the body. Credential headers are removed when the origin
    /// changes. A provider applies these rules above every engine.
    /// - Parameters:
    ///   - response: The response to `request`.
    ///   - request: The request that was sent.
    /// - Returns: The request to send next, or `nil`.
    public func nextRequest(after response: HTTPURLResponse, for request: URLRequest) -> URLRequest? {
        (try? followingRequest(after: response, for: request)) ?? nil
    }

    /// ``nextRequest(after:for:)``, with a downgrade the policy does not allow as an error.
    /// - Throws: ``RedirectError/downgrade(from:to:)``.
    func followingRequest(after response: HTTPURLResponse, for request: URLRequest) throws(RedirectError) -> URLRequest?
    {
        guard Self.redirectStatusCodes.contains(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"), let base = request.url,
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { return nil }
        var next = request
        next.url = target
        if Self.becomesGET(response.statusCode, method: request.httpMethod ?? "GET") {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        if !Self.sameOrigin(base, target) {
            // Every field the default redaction hides: its headers, and any whose name holds a
            // credential word (`PRIVATE-TOKEN`, `X-Vault-Token`).
            for header in (request.allHTTPHeaderFields ?? [:]).keys where Redaction.default.hidesHeader(header) {
                next.setHeaderField(nil, named: header)
            }
        }
        guard let followed = decide(next, response).flatMap({ try? HeaderFieldRules.checked($0) }) else { return nil }
        // Checked on what the policy returns: a `modify` policy cannot turn https into http either.
        if !allowsDowngrade, base.scheme?.lowercased() == "https", followed.url?.scheme?.lowercased() == "http",
            let to = followed.url
        {
            throw .downgrade(from: base, to: to)
        }
        return followed
    }

    /// Whether a redirect with `statusCode` turns a request with `method` into a body-less `GET`.
    static func becomesGET(_ statusCode: Int, method: String) -> Bool {
        switch statusCode {
        case 301, 302: method.uppercased() == "POST"
        case 303: method.uppercased() != "HEAD" && method.uppercased() != "GET"
        default: false
        }
    }

    private static func sameOrigin(_ first: URL?, _ second: URL?) -> Bool {
        guard let first, let second else { return false }
        return Origin(first) == Origin(second)
    }
}
