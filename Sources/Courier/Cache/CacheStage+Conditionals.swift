import Foundation

extension CacheStage {
    /// A request with its own conditionals or a range, answered from a stored response the
    /// request may use as it is (RFC 9111 §4.3.2): a 304 when its validators match, a 206 for one
    /// byte range of a stored whole response; `nil` when the engine must answer.
    func answerConditional(_ lookup: Lookup) -> TransportResponse? {
        let fields = lookup.fields
        guard fields["If-Match"] == nil, fields["If-Unmodified-Since"] == nil, fields["If-Range"] == nil,
            let stored = cache.variant(for: lookup.key, fields: fields)
        else { return nil }
        let freshness = CacheFreshness(stored, now: cache.now(), heuristicFraction: cache.heuristicFraction)
        guard lookup.asked.allows(freshness) != .no else { return nil }
        let storedFields = stored.fields
        if let noneMatch = fields["If-None-Match"] {
            guard let etag = storedFields["ETag"] else { return nil }
            return Self.weaklyMatches(noneMatch, etag) ? notModified(stored, freshness) : nil
        }
        if let since = fields["If-Modified-Since"].flatMap(HTTPDate.parse) {
            guard let modified = (storedFields["Last-Modified"] ?? storedFields["Date"]).flatMap(HTTPDate.parse) else {
                return nil
            }
            return modified <= since ? notModified(stored, freshness) : nil
        }
        if let range = fields["Range"], stored.statusCode == 200 {
            return partial(stored, freshness, range: range)
        }
        return nil
    }

    /// RFC 9110 §8.8.3.2: an `If-None-Match` list matches `etag` when one member is `*` or the
    /// same opaque tag, weak or not.
    static func weaklyMatches(_ list: String, _ etag: String) -> Bool {
        let opaque = { (tag: Substring) -> Substring in
            let trimmed = tag.drop(while: { $0 == " " })
            return trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed
        }
        let stored = opaque(Substring(etag.trimmingCharacters(in: .whitespaces)))
        return list.split(separator: ",").contains { member in
            let tag = opaque(member).trimmingCharacters(in: .whitespaces)
            return tag == "*" || Substring(tag) == stored
        }
    }

    /// The stored response's head as a 304.
    private func notModified(_ stored: CachedResponse, _ freshness: CacheFreshness) -> TransportResponse {
        var fields = stored.fields
        fields.removeAll(named: "Content-Length")
        fields.removeAll(named: "Age")
        fields.append(name: "Age", value: freshness.ageField)
        var response = TransportResponse(statusCode: 304, headerFields: fields, url: stored.url, data: Data())
        response.cacheOutcome = .fresh
        return response
    }

    /// One `bytes=` range of a stored whole response as a 206; `nil` for several ranges or one
    /// the body cannot satisfy.
    private func partial(_ stored: CachedResponse, _ freshness: CacheFreshness, range: String) -> TransportResponse? {
        let count = stored.body.count
        guard range.lowercased().hasPrefix("bytes="), !range.contains(","), count > 0 else { return nil }
        let spec = range.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first: Int
        let last: Int
        if spec[0].isEmpty {
            guard let suffix = Int(spec[1]), suffix > 0 else { return nil }
            (first, last) = (max(0, count - suffix), count - 1)
        } else {
            guard let start = Int(spec[0]), start < count else { return nil }
            first = start
            last = spec[1].isEmpty ? count - 1 : min(count - 1, Int(spec[1]) ?? -1)
        }
        guard first <= last else { return nil }
        var fields = stored.fields
        for name in ["Content-Length", "Content-Range", "Age"] { fields.removeAll(named: name) }
        fields.append(name: "Content-Range", value: "bytes \(first)-\(last)/\(count)")
        fields.append(name: "Age", value: freshness.ageField)
        let body = stored.body.subdata(in: stored.body.startIndex + first..<stored.body.startIndex + last + 1)
        var response = TransportResponse(statusCode: 206, headerFields: fields, url: stored.url, data: body)
        response.cacheOutcome = .fresh
        return response
    }
}
