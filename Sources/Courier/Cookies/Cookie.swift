import Foundation

/// One cookie in a ``CookieJar``, as RFC 6265 §5.3 stores it: what a server's `Set-Cookie` said,
/// resolved against the URL it came from.
///
/// Its ``description`` never shows the value: cookies are credentials.
public struct Cookie: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The name; empty for a `Set-Cookie` that gave only a value.
    public let name: String
    /// The value, as the server sent it (percent sequences are not decoded).
    public let value: String
    /// The host (``isHostOnly``) or the domain the cookie is sent to, lower-cased.
    public let domain: String
    /// Whether the cookie goes only to ``domain`` itself, not to its subdomains (no `Domain`
    /// attribute, or one equal to a public suffix).
    public let isHostOnly: Bool
    /// The path the cookie is sent under.
    public let path: String
    /// When the cookie expires; `nil` for a session cookie, which lives as long as its jar.
    public let expires: Date?
    /// Whether the cookie is sent only over a secure channel (`https`, or a loopback host).
    public let isSecure: Bool
    /// Whether the server marked the cookie `HttpOnly` (every request Courier sends is an HTTP
    /// request, so the flag is kept, not applied).
    public let isHTTPOnly: Bool
    /// The `SameSite` attribute, lower-cased (`strict`, `lax`, `none`), kept but not applied: an
    /// API client has no "site for cookies".
    public let sameSite: String?
    /// When the jar first stored a cookie of this name, domain and path.
    public let created: Date

    /// Creates a cookie; a jar makes them from `Set-Cookie` fields (``CookieJar/store(_:from:)``),
    /// this is for restoring or seeding one.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - domain: The host or domain, lower-cased by this initializer.
    ///   - isHostOnly: Whether only `domain` itself gets the cookie.
    ///   - path: The path; `/` by default.
    ///   - expires: When it expires; a session cookie by default.
    ///   - isSecure: Whether it goes only over a secure channel.
    ///   - isHTTPOnly: The `HttpOnly` flag.
    ///   - sameSite: The `SameSite` attribute.
    ///   - created: The creation time, which orders cookies of equal path length.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: String? = nil,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain.lowercased()
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.created = created
    }

    /// The cookie's name, domain and path, without its value.
    public var description: String {
        "\(name)=\(Redaction.mask); Domain=\(domain)\(isHostOnly ? " (host only)" : ""); Path=\(path)"
            + (isSecure ? "; Secure" : "") + (expires.map { "; Expires=\($0)" } ?? "")
    }

    /// What identifies a stored cookie: a new one with the same identity replaces it.
    struct Identity: Hashable {
        let name: String
        let domain: String
        let isHostOnly: Bool
        let path: String
    }

    var identity: Identity { Identity(name: name, domain: domain, isHostOnly: isHostOnly, path: path) }

    /// The cookie as a `Cookie` field's pair: the value alone when the name is empty.
    var pair: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// The cookie with `created` replaced (a cookie that replaces another keeps its time).
    func created(_ date: Date) -> Cookie {
        Cookie(
            name: name, value: value, domain: domain, isHostOnly: isHostOnly, path: path, expires: expires,
            isSecure: isSecure, isHTTPOnly: isHTTPOnly, sameSite: sameSite, created: date)
    }

    /// Whether the cookie has expired at `now`.
    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// Bytes the cookie counts against the RFC's per-cookie limit.
    var size: Int { name.utf8.count + value.utf8.count }
}
