import Foundation

/// What goes into storage: which answers may be stored and in what form (RFC 9111 §3), and a
/// stored response freshened by a 304 (§4.3.4).
enum CacheEntries {
    /// Fields never stored: connection-specific and proxy fields (§3.1).
    static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
    ]

    /// Statuses stored only with explicit freshness.
    private static let explicitOnly: Set<Int> = [302, 303, 307]

    /// The entry for `response`, or `nil` when it may not be stored.
    static func storable(
        _ response: TransportResponse, for lookup: CacheStage.Lookup, sent: Date, received: Date
    ) -> CachedResponse? {
        let status = response.statusCode
        guard status >= 200, status != 206, status != 304 else { return nil }
        // The field that most often says no, read alone first: making every field costs more.
        if let line = response.field("Cache-Control"), CacheDirectives(lines: [line]).has("no-store") { return nil }
        let fields = response.headerFields
        let directives = CacheDirectives(fields)
        let vary = HTTPCache.varyNames(fields)
        guard !directives.has("no-store"), !vary.contains("*"),
            !directives.has("must-understand") || CacheFreshness.heuristicallyCacheable.contains(status)
        else { return nil }
        let explicit = directives.has("max-age") || fields["Expires"] != nil
        let allowed =
            explicit || directives.has("public") || directives.has("private")
            || (CacheFreshness.heuristicallyCacheable.contains(status) && !explicitOnly.contains(status))
        guard allowed else { return nil }
        var varyValues: [String: String] = [:]
        for name in vary { varyValues[name] = HTTPCache.normalized(lookup.fields, name) }
        return CachedResponse(
            url: lookup.url, statusCode: status, headerFields: kept(fields, directives), body: response.data,
            requestDate: sent, responseDate: received, varyValues: varyValues
        ).parsedOnce()
    }

    /// The fields of a response as stored: without those never stored, those `Connection`
    /// names, and those a qualified `no-cache` or `private` names.
    private static func kept(_ fields: HeaderFields, _ directives: CacheDirectives) -> [CachedResponse.Field] {
        var dropped = unstoredFields
        for value in fields.values(for: "Connection") {
            for name in value.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        dropped.formUnion(directives.fieldNames("no-cache"))
        dropped.formUnion(directives.fieldNames("private"))
        return fields.filter { !dropped.contains($0.name.lowercased()) }.map {
            CachedResponse.Field(name: $0.name, value: $0.value)
        }
    }

    /// `stored` with the 304's fields in place of its own (§3.2), except `Content-Length` and the
    /// fields never stored, and with the validation's times.
    static func freshened(_ stored: CachedResponse, by notModified: HeaderFields, sent: Date, received: Date)
        -> CachedResponse
    {
        var excluded = unstoredFields
        excluded.insert("content-length")
        let updates = notModified.filter { !excluded.contains($0.name.lowercased()) }
        let replaced = Set(updates.map { $0.name.lowercased() })
        var fields = stored.headerFields.filter { !replaced.contains($0.name.lowercased()) }
        fields += updates.map { CachedResponse.Field(name: $0.name, value: $0.value) }
        var updated = stored
        updated.headerFields = fields
        updated.requestDate = sent
        updated.responseDate = received
        return updated.parsedOnce()
    }
}
