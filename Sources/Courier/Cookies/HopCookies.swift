import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider's cookie jar as one attempt's requests use it, made per attempt for a request that
/// handles cookies and carried in its ``ExchangeContext``: ``CookieStage`` gives every request
/// that passes it the jar's cookies for its URL and stores every answer's `Set-Cookie`; the
/// redirect stage (`RedirectStage`) stores each redirect's and gives each next hop the cookies of
/// its own URL.
final class HopCookies: Sendable {
    /// The jar.
    let jar: CookieJar
    /// The `Cookie` field the request had before the jar's cookies were added (the caller's own).
    let callerCookie: String?

    /// A class, so that a request without a jar carries one nil pointer.
    init(jar: CookieJar, callerCookie: String?) {
        self.jar = jar
        self.callerCookie = callerCookie
    }

    /// The state of an attempt's request for `jar`, or `nil` when there is no jar or the request
    /// does not handle cookies.
    /// - Parameters:
    ///   - jar: The provider's jar.
    ///   - request: The attempt's request, as adapted (its `Cookie` field is the caller's own).
    static func forAttempt(_ jar: CookieJar?, _ request: URLRequest) -> HopCookies? {
        guard let jar, request.httpShouldHandleCookies else { return nil }
        return HopCookies(jar: jar, callerCookie: request.value(forHTTPHeaderField: "Cookie"))
    }

    /// `request` as it is sent: the jar's cookies for its URL, after the caller's own `Cookie`
    /// field while the request still carries a `Cookie` field (a request a stage made for another
    /// origin, such as an upload resource's, dropped it, as a redirect there does).
    func outgoing(_ request: URLRequest) -> URLRequest {
        let kept = request.value(forHTTPHeaderField: "Cookie") != nil
        return Self.attaching(jar, to: request, callerCookie: callerCookie, keepsCallerCookie: kept)
    }

    /// `request` with the caller's `Cookie` field and the jar's cookies for its URL.
    /// - Parameters:
    ///   - request: The request of a hop.
    ///   - keepsCallerCookie: Whether the caller's own field goes along (a redirect to another
    ///     origin drops it).
    static func attaching(
        _ jar: CookieJar, to request: URLRequest, callerCookie: String?, keepsCallerCookie: Bool = true
    ) -> URLRequest {
        var request = request
        let parts = [keepsCallerCookie ? callerCookie : nil, request.url.flatMap(jar.headerValue(for:))].compactMap {
            $0
        }
        let value = parts.isEmpty ? nil : parts.joined(separator: "; ")
        if request.value(forHTTPHeaderField: "Cookie") != value {
            request.setHeaderField(value, named: "Cookie")
        }
        return request
    }

    /// Stores the `Set-Cookie` fields of an attempt's final answer from `url`. Every answer's
    /// cookies count, a rejected status's too, as in a browser; so do those of a `304` that
    /// revalidated a stored response (a rotated session cookie often comes on one). A stored
    /// answer's own never count again: they could bring back a cookie the server has since
    /// removed.
    func storeCookies(of received: TransportResponse, url: URL) {
        switch received.cacheOutcome {
        case nil, .miss?, .unsatisfiable?: jar.store(from: received.headerFields, url: url)
        case .revalidated(let notModified)?: jar.store(from: notModified, url: url)
        case .fresh?, .stale?, .shared?: break
        }
    }

    /// The next hop after a redirect: its `Set-Cookie` stored, and the cookies for `next`'s URL
    /// (the caller's own only if the redirect policy kept the field).
    func nextHop(after redirect: HTTPURLResponse, fields: HeaderFields, _ next: URLRequest) -> URLRequest {
        if let url = redirect.url { jar.store(from: fields, url: url) }
        return outgoing(next)
    }
}
