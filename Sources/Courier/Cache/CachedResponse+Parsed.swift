import Foundation

extension CachedResponse {
    /// What a cache lookup reads from a stored response's fields, parsed once: made when the
    /// response is stored, so a hit reads no field text (parsing them on every hit cost most of
    /// a fresh hit, about 20,000 instructions on Linux; callgrind, Benchmarks/count).
    ///
    /// Derived from ``CachedResponse/headerFields`` alone, and used only while they are the ones
    /// it was made from (``CachedResponse/parsedFields``), so a response whose fields were changed
    /// is parsed again. Immutable.
    final class Parsed: Sendable, Hashable {
        /// The fields it was made from.
        let source: [Field]
        /// The fields as ``HeaderFields``.
        let fields: HeaderFields
        /// The fields without `Age`, to which a served response adds its own.
        let fieldsWithoutAge: HeaderFields
        /// The `Cache-Control` directives.
        let directives: CacheDirectives
        /// The `Date` field, when it parses.
        let date: Date?
        /// The `Age` field's first member in seconds, 0 without a valid one.
        let age: TimeInterval
        /// The `Expires` field: `nil` without one; `.some(nil)` for an invalid one or two of them.
        let expires: Date??
        /// The `Last-Modified` field, when it parses.
        let lastModified: Date?
        /// The lower-case names `Vary` lists.
        let varyNames: [String]

        init(_ source: [Field]) {
            self.source = source
            let fields = HeaderFields(source.map { HeaderFields.Field(name: $0.name, value: $0.value) })
            self.fields = fields
            var withoutAge = fields
            withoutAge.removeAll(named: "Age")
            fieldsWithoutAge = withoutAge
            directives = CacheDirectives(lines: fields.values(for: "Cache-Control"))
            date = fields.values(for: "Date").first.flatMap(HTTPDate.parse)
            // The first member of the first field line; anything but a non-negative integer is ignored.
            age = fields.values(for: "Age").first.flatMap(CacheFreshness.age).map(TimeInterval.init) ?? 0
            let expiresLines = fields.values(for: "Expires")
            // An invalid Expires (notably "0"), or two of them, means already expired (§5.3).
            expires =
                expiresLines.isEmpty ? nil : .some(expiresLines.count == 1 ? HTTPDate.parse(expiresLines[0]) : nil)
            lastModified = fields["Last-Modified"].flatMap(HTTPDate.parse)
            varyNames = HTTPCache.varyNames(fields)
        }

        /// Always equal: it is derived from the fields, which the response compares itself.
        static func == (lhs: Parsed, rhs: Parsed) -> Bool { true }

        /// Hashes nothing, as equality compares nothing.
        func hash(into hasher: inout Hasher) {}
    }

    /// The parsed fields: those made when the response was stored while its fields are the ones
    /// they were made from, else made now.
    var parsedFields: Parsed {
        // Comparing arrays that share their storage is one pointer comparison.
        if let parsed, parsed.source == headerFields { return parsed }
        return Parsed(headerFields)
    }

    /// This response with its fields parsed, for storing.
    func parsedOnce() -> CachedResponse {
        var parsed = self
        parsed.parsed = Parsed(headerFields)
        return parsed
    }
}
