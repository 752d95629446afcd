import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Headers whose values carry secrets: ``Redaction/defaultHeaders``.
    public static let sensitiveHeaders: Set<String> = Redaction.defaultHeaders

    /// The request as a `curl` command line, for logs and for replaying it by hand, with its
    /// secrets hidden.
    ///
    /// Headers are sorted by name. What `redaction` names reads `***`: the URL's user information,
    /// the values of sensitive headers, credential query items, and credential fields of a form or
    /// JSON body; so a log never holds a token by default.
    /// - Parameters:
    ///   - redaction: What is hidden; ``Redaction/default`` by default.
    ///   - maximumBodyBytes: The largest part of the body shown; the rest is counted. No limit by default.
    /// - Returns: A command such as `curl -X POST -H 'Content-Type: application/json' -d '{}' 'https://…'`.
    public func cURLDescription(redaction: Redaction = .default, maximumBodyBytes: Int = .max) -> String {
        var parts = ["curl"]
        let method = httpMethod ?? "GET"
        if method != "GET" {
            parts.append("-X \(HeaderFieldRules.isToken(method) ? method : Self.quote(Redaction.escaped(method)))")
        }
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts.append("-H \(Self.quote("\(redaction.headerName(name)): \(redaction.headerValue(name, value))"))")
        }
        if let body = httpBody, !body.isEmpty {
            let shown = redaction.body(body, contentType: value(forHTTPHeaderField: "Content-Type"))
            let limit = max(0, maximumBodyBytes)
            var text = BodySummary.text(shown.count > limit ? Data(shown.prefix(limit)) : shown)
            if shown.count > limit { text += "… (\(shown.count - limit) more bytes)" }
            parts.append("-d \(Self.quote(text))")
        }
        parts.append(Self.quote(url.map(redaction.url) ?? ""))
        return parts.joined(separator: " ")
    }

    /// The request as a `curl` command line, hiding the values of `redactedHeaders` (and the
    /// secrets of the URL and body that ``Redaction/default`` names).
    /// - Parameters:
    ///   - redactedHeaders: Header names whose values are hidden.
    ///   - maximumBodyBytes: The largest part of the body shown; the rest is counted. No limit by default.
    /// - Returns: The command line.
    @available(*, deprecated, message: "Use cURLDescription(redaction:maximumBodyBytes:) with Redaction(headers:).")
    public func cURLDescription(redacting redactedHeaders: Set<String>, maximumBodyBytes: Int = .max) -> String {
        cURLDescription(redaction: Redaction(headers: redactedHeaders), maximumBodyBytes: maximumBodyBytes)
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingScalars(of: "'", with: "'\\''") + "'"
    }
}
