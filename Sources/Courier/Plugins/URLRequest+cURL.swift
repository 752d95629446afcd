import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Headers whose values carry secrets: `Authorization`, `Proxy-Authorization`, `Cookie` and
    /// `Set-Cookie`.
    public static let sensitiveHeaders: Set<String> = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// The request as a `curl` command line, for logs and for replaying it by hand.
    ///
    /// Headers are sorted by name; the values of `redactedHeaders` (case-insensitive) are
    /// replaced by `***`, so a log never holds a token by default.
    /// - Parameters:
    ///   - redactedHeaders: Header names whose values are hidden; the sensitive ones by default.
    ///   - maximumBodyBytes: The largest part of the body shown; the rest is counted. No limit by default.
    /// - Returns: A command such as `curl -X POST -H 'Content-Type: application/json' -d '{}' 'https://…'`.
    public func cURLDescription(
        redacting redactedHeaders: Set<String> = sensitiveHeaders, maximumBodyBytes: Int = .max
    ) -> String {
        let redacted = Set(redactedHeaders.map { $0.lowercased() })
        var parts = ["curl"]
        let method = httpMethod ?? "GET"
        if method != "GET" { parts.append("-X \(method)") }
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            let shown = redacted.contains(name.lowercased()) ? "***" : value
            parts.append("-H \(Self.quote("\(name): \(shown)"))")
        }
        if let body = httpBody, !body.isEmpty {
            let limit = max(0, maximumBodyBytes)
            var text = BodySummary.text(body.count > limit ? Data(body.prefix(limit)) : body)
            if body.count > limit { text += "… (\(body.count - limit) more bytes)" }
            parts.append("-d \(Self.quote(text))")
        }
        parts.append(Self.quote(url?.absoluteString ?? ""))
        return parts.joined(separator: " ")
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
