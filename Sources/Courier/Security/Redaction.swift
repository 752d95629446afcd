import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which secrets Courier hides from text meant for people: log lines, cURL commands, error and
/// response descriptions. A hidden value reads `***`.
///
/// By default Courier hides, everywhere it writes text:
/// - the user information of a URL (`https://ann:secret@host` reads `https://***@host`);
/// - the values of the headers in ``defaultHeaders`` (`Authorization`, `Cookie`, API-key headers…)
///   and of any header whose name holds a word of ``defaultCredentialWords`` (`PRIVATE-TOKEN`);
/// - the values of query items, form fields, JSON members and multipart parts whose names are in
///   ``defaultFieldNames`` (`access_token`, `password`, `api_key`…), compared without case, also
///   nested (`user[password]`) or holding a credential word (`password_confirmation`);
/// - the same in a URL's fragment, in the URLs of `Location`, `Link` and `Refresh` fields, and in
///   every kind of text body ``body(_:contentType:)`` reads.
///
/// A secret in a URL's path (a webhook's token, `/bot<token>/send`) is not hidden: nothing tells
/// it from any other path segment. Send secrets in headers or the query.
///
/// Add your own names where they are configured, such as the logger's:
/// ```swift
/// var redaction = Redaction.default
/// redaction.headers.insert("X-Tenant-Key")
/// redaction.fieldNames.insert("pin")
/// let logger = NetworkLoggerPlugin(configuration: .init(redaction: redaction))
/// ```
public struct Redaction: Sendable, Hashable {
    /// Headers whose values are hidden, compared without case.
    public var headers: Set<String> {
        didSet { lowercasedHeaders = Set(headers.map { $0.lowercased() }) }
    }
    /// Names of query items, form fields and JSON members whose values are hidden, compared
    /// without case.
    public var fieldNames: Set<String> {
        didSet { lowercasedFieldNames = Set(fieldNames.map { $0.lowercased() }) }
    }
    /// Words that make any header, query item, form field or JSON member whose name contains them
    /// a credential: `password` hides `password_confirmation`, `currentPassword` and
    /// `user[new_password]`; `token` hides `PRIVATE-TOKEN` and `X-Vault-Token`. A name's words are
    /// cut at `_`, `-`, `.`, `[`, `]`, spaces and lower-to-upper case changes; two adjacent words
    /// also count as one (`api`, `key` → `apikey`; `client`, `secret`), compared with these words
    /// and with ``fieldNames``. Empty to match names whole only.
    public var credentialWords: Set<String> {
        didSet { lowercasedWords = Set(credentialWords.map { $0.lowercased() }) }
    }
    private var lowercasedHeaders: Set<String>
    private var lowercasedFieldNames: Set<String>
    private var lowercasedWords: Set<String>

    /// The words of ``credentialWords`` by default: `password`, `passwd`, `passphrase`, `secret`,
    /// `token`, `signature`, `credential`, `apikey`, `privatekey`, `session`, `sessionid`, `jwt`,
    /// `authorization`, `otp`, `pin`. Short words that would hide too much as parts of other names
    /// (`key`, `code`, `sig`, `auth`) are in ``defaultFieldNames`` instead, matched whole.
    public static let defaultCredentialWords: Set<String> = [
        "password", "passwd", "passphrase", "secret", "token", "signature", "credential", "credentials", "apikey",
        "privatekey", "session", "sessionid", "jwt", "authorization", "otp", "pin",
    ]

    /// The text that stands for a hidden value.
    public static let mask = "***"

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and common API-key and token
    /// headers.
    public static let defaultHeaders: Set<String> = [
        "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-API-Key", "API-Key", "X-Auth-Token",
        "X-Access-Token", "X-Refresh-Token", "X-CSRF-Token", "X-XSRF-Token", "X-Amz-Security-Token",
        "X-Goog-API-Key", "Ocp-Apim-Subscription-Key",
    ]

    /// Names that mark a query item, form field or JSON member as a credential.
    public static let defaultFieldNames: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "auth", "auth_token", "api_key", "apikey", "key",
        "password", "passwd", "pwd", "secret", "client_secret", "signature", "sig", "session", "sessionid",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "accesstoken", "refreshtoken",
        // OAuth 2.0's other credentials: the authorization code, PKCE's verifier, the device
        // code, a client's signed assertion, and one-time passwords.
        "code", "code_verifier", "device_code", "client_assertion", "assertion", "otp",
    ]

    /// The default: ``defaultHeaders`` and ``defaultFieldNames``.
    public static let `default` = Redaction()

    /// Creates a redaction.
    /// - Parameters:
    ///   - headers: Headers whose values are hidden; ``defaultHeaders`` by default.
    ///   - fieldNames: Query items, form fields and JSON members whose values are hidden;
    ///     ``defaultFieldNames`` by default.
    ///   - credentialWords: Words that make any name containing them a credential's;
    ///     ``defaultCredentialWords`` by default.
    public init(
        headers: Set<String> = Redaction.defaultHeaders, fieldNames: Set<String> = Redaction.defaultFieldNames,
        credentialWords: Set<String> = Redaction.defaultCredentialWords
    ) {
        self.headers = headers
        self.fieldNames = fieldNames
        self.credentialWords = credentialWords
        self.lowercasedHeaders = Set(headers.map { $0.lowercased() })
        self.lowercasedFieldNames = Set(fieldNames.map { $0.lowercased() })
        self.lowercasedWords = Set(credentialWords.map { $0.lowercased() })
    }

    /// Whether the values of the header `name` are hidden.
    /// - Parameter name: A header name, in any case.
    /// - Returns: `true` when its value is hidden.
    ///
    /// A header is hidden when ``headers`` names it, or when one of its words (or two adjacent
    /// ones) is in ``credentialWords``: `PRIVATE-TOKEN`, `X-Vault-Token`, `DD-API-KEY`.
    public func hidesHeader(_ name: String) -> Bool {
        lowercasedHeaders.contains(name.lowercased()) || containsCredentialWord(name, alsoIn: [])
    }

    /// Whether the values of the query item, form field or JSON member `name` are hidden.
    /// - Parameter name: The name, in any case.
    /// - Returns: `true` when its value is hidden.
    ///
    /// A nested name, as Rails, PHP and `URLEncoding`'s brackets write it (`user[password]`,
    /// `auth[token][]`) or as dotted paths do (`user.password`), is hidden when any of its parts
    /// is: a server reads `user[password]` as a password. A name that contains a word of
    /// ``credentialWords`` is hidden too (`password_confirmation`, `clientSecret`, `idToken`).
    public func hidesField(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if lowercasedFieldNames.contains(lowered) { return true }
        if lowered.unicodeScalars.contains(where: { $0 == "[" || $0 == "." }),
            lowered.split(whereSeparator: { $0 == "[" || $0 == "]" || $0 == "." }).contains(where: {
                lowercasedFieldNames.contains(String($0))
            })
        {
            return true
        }
        return containsCredentialWord(name, alsoIn: lowercasedFieldNames)
    }

    /// Whether a word of `name`, or two adjacent words joined, is a credential word (or in
    /// `names`, for a pair).
    private func containsCredentialWord(_ name: String, alsoIn names: Set<String>) -> Bool {
        guard !lowercasedWords.isEmpty || !names.isEmpty else { return false }
        let words = Self.words(of: name)
        for (index, word) in words.enumerated() {
            if lowercasedWords.contains(word) { return true }
            guard index > 0 else { continue }
            let pair = words[index - 1] + word
            if lowercasedWords.contains(pair) || names.contains(pair) { return true }
        }
        return false
    }

    /// The lowercased words of a name: cut at punctuation, spaces and lower-to-upper case changes.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousIsLower = false
        for scalar in name.unicodeScalars {
            let isLetterOrDigit = CharacterSet.alphanumerics.contains(scalar)
            let isUpper = CharacterSet.uppercaseLetters.contains(scalar)
            if !isLetterOrDigit || (isUpper && previousIsLower) {
                if !current.isEmpty { words.append(current) }
                current = ""
            }
            if isLetterOrDigit { current.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars) }
            previousIsLower = isLetterOrDigit && !isUpper
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The value of the header `name` as it may be shown: ``mask`` for a hidden header, else the
    /// value with any control character escaped (`\r\n` shows as text), so that a value that
    /// ``HeaderFieldRules`` will refuse cannot forge a line in a log.
    /// - Parameters:
    ///   - name: The header name.
    ///   - value: Its value.
    /// - Returns: The value as it may be shown.
    ///
    /// A field whose value is a URL (`Location`, `Content-Location`, `Referer`, `Link`, `Refresh`)
    /// has that URL redacted as ``urlString(_:)`` does: an OAuth `code=` or an `#access_token=` of
    /// a redirect reads `***`.
    public func headerValue(_ name: String, _ value: String) -> String {
        if hidesHeader(name) { return Self.mask }
        let shown = urlBearingValue(name, value)
        return HeaderFieldRules.problem(inValue: shown) == nil ? shown : Self.escaped(shown)
    }

    /// `value` with the URLs it carries redacted, for the fields whose values are (or hold) URLs.
    private func urlBearingValue(_ name: String, _ value: String) -> String {
        switch name.lowercased() {
        case "location", "content-location", "referer": urlString(value)
        case "link": redactingBracketedURLs(value)
        case "refresh": refreshValue(value)
        default: value
        }
    }

    /// A `Refresh` field's value (`5; url=https://…`, `0;URL='…'`, `5, https://…`) with its URL
    /// redacted, read as HTML reads it: the delay, `;` or `,`, then an optional `url =` and
    /// optional quotes.
    private func refreshValue(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard let separator = scalars.firstIndex(where: { $0 == ";" || $0 == "," }) else { return value }
        var start = scalars.index(after: separator)
        func skipSpaces() {
            while start < scalars.endIndex, scalars[start] == " " || scalars[start] == "\t" {
                start = scalars.index(after: start)
            }
        }
        skipSpaces()
        let rest = String(scalars[start...])
        if rest.lowercased().hasPrefix("url") {
            var probe = scalars.index(start, offsetBy: 3)
            while probe < scalars.endIndex, scalars[probe] == " " || scalars[probe] == "\t" {
                probe = scalars.index(after: probe)
            }
            if probe < scalars.endIndex, scalars[probe] == "=" {
                start = scalars.index(after: probe)
                skipSpaces()
            }
        }
        if start < scalars.endIndex, scalars[start] == "'" || scalars[start] == "\"" {
            start = scalars.index(after: start)
        }
        return String(scalars[..<start]) + urlString(String(scalars[start...]))
    }

    /// A `Link` field's text with each `<URL>` redacted.
    private func redactingBracketedURLs(_ value: String) -> String {
        var shown = ""
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            shown += rest[...open] + urlString(String(rest[rest.index(after: open)..<close])) + ">"
            rest = rest[rest.index(after: close)...]
        }
        return shown + rest
    }

    /// A header name as it may be shown: escaped when it holds a control character.
    func headerName(_ name: String) -> String {
        HeaderFieldRules.problem(inValue: name) == nil ? name : Self.escaped(name)
    }

    /// `METHOD URL` for a log line or a description: the URL redacted, and a method that is not a
    /// token (one that ``HeaderFieldRules`` refuses) shown as `(invalid method)`.
    /// - Parameters:
    ///   - request: The request.
    ///   - includesMethod: Whether the method comes first; `true` by default.
    /// - Returns: The line.
    public func requestLine(_ request: URLRequest, includesMethod: Bool = true) -> String {
        let target = request.url.map(url) ?? "(no URL)"
        guard includesMethod else { return target }
        let method = request.httpMethod ?? "GET"
        return "\(HeaderFieldRules.isToken(method) ? method : "(invalid method)") \(target)"
    }

    /// `text` with control characters, quotes and backslashes escaped, as in a Swift literal.
    static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined()
    }

    /// `url` as it may be shown: user information and the values of credential query items hidden.
    /// - Parameter url: The URL.
    /// - Returns: The URL's text, redacted.
    public func url(_ url: URL) -> String {
        guard url.user != nil || url.password != nil || url.query != nil || url.fragment != nil else {
            return url.absoluteString
        }
        return urlString(url.absoluteString)
    }

    /// A URL's text as it may be shown: user information and the values of credential query items
    /// hidden, also in text that does not parse as a URL. A fragment of `name=value` pairs (OAuth's
    /// implicit flow answers `#access_token=…`) is redacted as a query is.
    /// - Parameter text: The URL's text.
    /// - Returns: The text, redacted.
    public func urlString(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return maskingByHand(text) }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            components.percentEncodedUser = Self.mask
            components.percentEncodedPassword = nil
        }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = redactedPairs(query)
        }
        if let fragment = components.percentEncodedFragment, fragment.contains("=") {
            components.percentEncodedFragment = redactedFragment(fragment)
        }
        return components.string ?? maskingByHand(text)
    }

    /// A URL's fragment with its credential pairs hidden: the whole fragment as pairs
    /// (`#access_token=…&state=…`), or what follows its last `?` in a route of a single-page app
    /// (`#/callback?code=…`).
    private func redactedFragment(_ fragment: String) -> String {
        guard let mark = fragment.unicodeScalars.lastIndex(of: "?") else { return redactedPairs(fragment) }
        let route = String(fragment.unicodeScalars[...mark])
        return route + redactedPairs(String(fragment.unicodeScalars[fragment.unicodeScalars.index(after: mark)...]))
    }

    /// An `application/x-www-form-urlencoded` text (a query, a form body) with the values of
    /// credential fields hidden.
    ///
    /// Cut on Unicode scalars, not characters: `&` or `=` followed by a combining mark is one
    /// character, yet still a separator to a server.
    func redactedPairs(_ text: String) -> String {
        text.unicodeScalars.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = Self.string(pair.prefix { $0 != "=" })
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            return hidesField(decoded) && pair.contains("=") ? "\(name)=\(Self.mask)" : Self.string(pair)
        }.joined(separator: "&")
    }

    /// For text that `URLComponents` cannot parse: hides what stands between `//` and the last `@`
    /// of the authority, and the values of credential query items. Works on Unicode scalars, so a
    /// combining mark after `@` or `/` cannot hide a separator.
    private func maskingByHand(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        if let slash = scalars.indices.dropLast().first(where: { scalars[$0] == "/" && scalars[$0 + 1] == "/" }) {
            let start = slash + 2
            let end = scalars[start...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? scalars.endIndex
            if let at = scalars[start..<end].lastIndex(of: "@") {
                scalars.replaceSubrange(start..<at, with: Self.mask.unicodeScalars)
            }
        }
        let hash = scalars.firstIndex(of: "#") ?? scalars.endIndex
        let fragment = hash < scalars.endIndex ? "#" + redactedFragment(Self.string(scalars[(hash + 1)...])) : ""
        guard let mark = scalars[..<hash].firstIndex(of: "?") else { return Self.string(scalars[..<hash]) + fragment }
        let query = redactedPairs(Self.string(scalars[(mark + 1)..<hash]))
        return Self.string(scalars[...mark]) + query + fragment
    }

    /// The text of `scalars`.
    private static func string<Scalars: Sequence>(_ scalars: Scalars) -> String
    where Scalars.Element == Unicode.Scalar {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
