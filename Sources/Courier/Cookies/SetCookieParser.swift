import Foundation

/// Turns one `Set-Cookie` field value into a ``Cookie`` for the URL it came from: RFC 6265 §5.2
/// parsing and §5.3 storage rules, with what RFC 6265bis adds for a non-browser client (control
/// characters refuse the line, 4,096-byte name and value, 1,024-byte attributes, at most 400
/// days, `Secure` only from a secure origin, the `__Secure-` and `__Host-` prefixes).
struct SetCookieParser {
    /// The longest a cookie may live, whatever it asks: RFC 6265bis' 400 days.
    static let maximumLifetime: TimeInterval = 400 * 86_400
    /// The most bytes of a name and value together.
    static let maximumSize = 4_096
    /// The most bytes of one attribute's value; a longer attribute is ignored.
    static let maximumAttributeSize = 1_024

    let url: URL
    let now: Date
    let isPublicSuffix: @Sendable (String) -> Bool

    /// The attributes of a `Set-Cookie` line, the last of each kind kept.
    private struct Attributes {
        var expires: Date?
        var maxAge: Int?
        var domain: String?
        var path: String?
        var secure = false
        var httpOnly = false
        var sameSite: String?
    }

    /// The cookie `line` sets, or `nil` when the RFC says to ignore it.
    func cookie(from line: String) -> Cookie? {
        guard !line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0.value != 0x09) || $0.value == 0x7F })
        else { return nil }
        var pieces = line.split(separator: ";", omittingEmptySubsequences: false)[...]
        let pair = pieces.popFirst() ?? ""
        let name: Substring
        let value: Substring
        if let equals = pair.firstIndex(of: "=") {
            (name, value) = (pair[..<equals], pair[pair.index(after: equals)...])
        } else {
            (name, value) = ("", pair)
        }
        let (trimmedName, trimmedValue) = (Self.trimmed(name), Self.trimmed(value))
        guard !(trimmedName.isEmpty && trimmedValue.isEmpty),
            trimmedName.utf8.count + trimmedValue.utf8.count <= Self.maximumSize
        else { return nil }
        return stored(name: trimmedName, value: trimmedValue, attributes: attributes(pieces))
    }

    /// §5.2.1–§5.2.6: the attributes, unknown and malformed ones ignored.
    private func attributes(_ pieces: ArraySlice<Substring>) -> Attributes {
        var attributes = Attributes()
        for piece in pieces {
            let equals = piece.firstIndex(of: "=")
            let key = Self.trimmed(equals.map { piece[..<$0] } ?? piece).lowercased()
            let value = equals.map { Self.trimmed(piece[piece.index(after: $0)...]) } ?? ""
            guard value.utf8.count <= Self.maximumAttributeSize else { continue }
            switch key {
            case "expires": if let date = CookieDate.parse(value) { attributes.expires = date }
            case "max-age": if let seconds = Self.maxAge(value) { attributes.maxAge = seconds }
            case "domain":
                guard !value.isEmpty else { continue }
                attributes.domain = String(value.drop(while: { $0 == "." })).lowercased()
            case "path": attributes.path = value.hasPrefix("/") ? value : nil
            case "secure": attributes.secure = true
            case "httponly": attributes.httpOnly = true
            case "samesite": attributes.sameSite = value.lowercased()
            default: continue
            }
        }
        return attributes
    }

    /// §5.3: the cookie as the jar stores it, or `nil` when its domain, secure flag or prefix
    /// refuses it.
    private func stored(name: String, value: String, attributes: Attributes) -> Cookie? {
        let host = CookieDomain.canonicalHost(url)
        var domain = host
        var hostOnly = true
        if let given = attributes.domain {
            guard given.allSatisfy(\.isASCII) else { return nil }
            if isPublicSuffix(given) || CookieDomain.isIPAddress(host) {
                guard given == host else { return nil }
            } else {
                guard CookieDomain.matches(host: host, domain: given) else { return nil }
                (domain, hostOnly) = (given, false)
            }
        }
        let secureOrigin = CookieDomain.isSecure(url)
        if attributes.secure && !secureOrigin { return nil }
        let path = attributes.path ?? CookieDomain.defaultPath(of: CookieDomain.requestPath(of: url))
        let lowered = name.lowercased()
        if lowered.hasPrefix("__secure-") && !attributes.secure { return nil }
        if lowered.hasPrefix("__host-") && !(attributes.secure && hostOnly && path == "/") { return nil }
        return Cookie(
            name: name, value: value, domain: domain, isHostOnly: hostOnly, path: path, expires: expiry(attributes),
            isSecure: attributes.secure, isHTTPOnly: attributes.httpOnly, sameSite: attributes.sameSite, created: now)
    }

    /// `Max-Age` over `Expires`, each capped at 400 days; a `Max-Age` of zero or less expires
    /// the cookie at once.
    private func expiry(_ attributes: Attributes) -> Date? {
        let latest = now.addingTimeInterval(Self.maximumLifetime)
        if let seconds = attributes.maxAge {
            return seconds <= 0 ? .distantPast : min(latest, now.addingTimeInterval(TimeInterval(seconds)))
        }
        return attributes.expires.map { min(latest, $0) }
    }

    /// §5.2.2: a `-` or digit, then digits; anything else is ignored.
    private static func maxAge(_ text: String) -> Int? {
        guard let first = text.first, first == "-" || first.isASCIIDigit,
            text.dropFirst().allSatisfy(\.isASCIIDigit), text != "-"
        else { return nil }
        return Int(text) ?? (first == "-" ? Int.min : Int.max)
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> String {
        String(
            text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        )
    }

    /// The `Set-Cookie` values of a response's fields: separate field lines stay apart, and a
    /// line an engine joined with `, ` (URLSession does) is split again where a new `name=`
    /// starts, never inside an `Expires` date.
    static func lines(in fields: HeaderFields) -> [String] {
        fields.values(for: "Set-Cookie").flatMap(split)
    }

    /// One joined `Set-Cookie` value split at the commas that start a new cookie.
    static func split(_ joined: String) -> [String] {
        var lines: [String] = []
        var current = Substring(joined)
        var searchFrom = current.startIndex
        while let comma = current[searchFrom...].firstIndex(of: ",") {
            let rest = current[current.index(after: comma)...]
            let upToBreak = rest.prefix(while: { $0 != ";" && $0 != "," })
            if let equals = upToBreak.firstIndex(of: "="), !trimmed(rest[..<equals]).isEmpty,
                !trimmed(rest[..<equals]).contains(" ")
            {
                lines.append(String(current[..<comma]))
                current = rest
                searchFrom = current.startIndex
            } else {
                searchFrom = current.index(after: comma)
            }
        }
        lines.append(String(current))
        return lines.map { trimmed(Substring($0)) }.filter { !$0.isEmpty }
    }
}
