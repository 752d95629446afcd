import Foundation

/// The host and path rules of RFC 6265 §5.1.2–§5.1.4, and what the jar knows of public suffixes.
///
/// Public suffixes: with no list shipped, a `Domain` with no inner dot (`com`, `localhost`) is a
/// public suffix, and so is each entry of ``builtInPublicSuffixes``: the common second-level
/// registries (`co.uk`, `com.au`, …) and shared hosting domains (`github.io`, …). Anything else
/// (most of the Public Suffix List's ~9,000 entries) is not recognised: pass your own rule to
/// ``CookieJar/init(persistingTo:publicSuffix:clock:)`` for the full list.
public enum CookieDomain {
    /// The public suffixes the jar knows besides single labels.
    public static let builtInPublicSuffixes: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "ltd.uk", "plc.uk", "me.uk", "net.uk", "sch.uk", "nhs.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "co.nz", "org.nz", "net.nz", "govt.nz",
        "com.br", "net.br", "org.br", "com.cn", "net.cn", "org.cn", "gov.cn", "co.in", "net.in", "org.in",
        "co.kr", "or.kr", "co.za", "org.za", "com.mx", "com.tr", "com.tw", "com.hk", "com.sg", "co.il",
        "com.ar", "co.id", "com.my", "com.ph", "com.ua", "com.pl", "co.th", "com.vn", "com.eg", "com.sa",
        "github.io", "gitlab.io", "herokuapp.com", "netlify.app", "vercel.app", "pages.dev", "workers.dev",
        "appspot.com", "azurewebsites.net", "cloudfront.net", "blogspot.com", "firebaseapp.com", "web.app",
        "s3.amazonaws.com", "fly.dev", "onrender.com", "glitch.me",
    ]

    /// The jar's default rule: a single label, or one of ``builtInPublicSuffixes``.
    /// - Parameter domain: A lower-case domain without a leading dot.
    /// - Returns: Whether cookies may not be set for all of `domain`'s subdomains.
    @Sendable public static func isBuiltInPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") || builtInPublicSuffixes.contains(domain)
    }

    /// Whether `host` is an IP address (v4 or v6) rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCIIDigit })
    }

    /// §5.1.3: `host` is `domain`, or a name ending in `.domain`.
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        return !isIPAddress(host) && host.hasSuffix(domain) && host.dropLast(domain.count).hasSuffix(".")
    }

    /// §5.1.4: the directory of a request path.
    static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// §5.1.4: whether a request `path` is under a cookie's `cookiePath`.
    static func pathMatches(_ path: String, cookiePath: String) -> Bool {
        if path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// Whether requests to `url` go over a secure channel: `https`/`wss`, or a loopback host, as
    /// RFC 6265bis counts "potentially trustworthy" origins.
    static func isSecure(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        if scheme == "https" || scheme == "wss" { return true }
        let host = canonicalHost(url)
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || isIPv4Loopback(host)
    }

    /// Whether `host` is an IPv4 literal in 127.0.0.0/8: four decimal parts of at most 255, the
    /// first 127. A name that merely starts with `127.` (`127.example.com`) is not one.
    static func isIPv4Loopback(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part).map { $0 <= 255 } == true
        }
    }

    /// §5.1.4: the request path as sent, percent-encoded and with its trailing slash (`URL.path`
    /// decodes it and drops a trailing slash, so `/docs/` would read as `/docs`); `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path: String
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            // Read from the URL's own parse; the fallback parses it again.
            path = url.absoluteURL.path(percentEncoded: true)
        } else {
            path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        }
        return path.isEmpty ? "/" : path
    }

    /// §5.1.2: the request host, lower-cased (brackets of an IPv6 literal removed).
    static func canonicalHost(_ url: URL) -> String {
        var host = (url.host ?? "").lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
