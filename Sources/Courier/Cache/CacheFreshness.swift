import Foundation

/// The age and freshness of a stored response at a moment (RFC 9111 §4.2).
struct CacheFreshness {
    /// Statuses that are cacheable without explicit freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The response's directives.
    let directives: CacheDirectives
    /// Seconds since the response was generated, as the spec corrects it.
    let currentAge: TimeInterval
    /// Seconds the response stays fresh from its generation.
    let lifetime: TimeInterval

    /// The freshness of `stored` at `now`; `heuristicFraction` of the time since
    /// `Last-Modified` when nothing explicit says.
    init(_ stored: CachedResponse, now: Date, heuristicFraction: Double) {
        let fields = stored.fields
        directives = CacheDirectives(fields)
        let date = fields.values(for: "Date").first.flatMap(HTTPDate.parse) ?? stored.responseDate
        // The first member of the first field line; anything but a non-negative integer is ignored.
        let age = fields.values(for: "Age").first?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        let ageValue =
            age.flatMap { text in
                text.allSatisfy(\.isASCIIDigit) && !text.isEmpty ? Int(text.prefix(11)) : nil
            }.map(TimeInterval.init) ?? 0
        let apparentAge = max(0, stored.responseDate.timeIntervalSince(date))
        let correctedAge = ageValue + stored.responseDate.timeIntervalSince(stored.requestDate)
        currentAge = max(apparentAge, correctedAge) + now.timeIntervalSince(stored.responseDate)
        lifetime = Self.lifetime(
            directives, fields: fields, date: date, status: stored.statusCode, fraction: heuristicFraction)
    }

    /// §4.2.1–§4.2.2: `max-age`, else `Expires − Date`, else the heuristic.
    private static func lifetime(
        _ directives: CacheDirectives, fields: HeaderFields, date: Date, status: Int, fraction: Double
    ) -> TimeInterval {
        if let maxAge = directives.seconds("max-age") { return TimeInterval(maxAge.value(invalid: 0)) }
        let expires = fields.values(for: "Expires")
        if !expires.isEmpty {
            // An invalid Expires (notably "0"), or two of them, means already expired (§5.3).
            guard expires.count == 1, let when = HTTPDate.parse(expires[0]) else { return 0 }
            return max(0, when.timeIntervalSince(date))
        }
        guard heuristicallyCacheable.contains(status) || directives.has("public"),
            let modified = fields["Last-Modified"].flatMap(HTTPDate.parse)
        else { return 0 }
        return max(0, date.timeIntervalSince(modified) * fraction)
    }

    /// Whether the response is fresh.
    var isFresh: Bool { lifetime > currentAge }

    /// Seconds past its freshness (0 while fresh).
    var staleness: TimeInterval { max(0, currentAge - lifetime) }

    /// Whether the response may never be served stale: `must-revalidate`, or unqualified
    /// `no-cache` (which needs a validation every time).
    var forbidsStale: Bool { directives.has("must-revalidate") || directives.isUnqualified("no-cache") }

    /// The `Age` field's value to serve it with.
    var ageField: String { String(Int(max(0, currentAge).rounded(.down))) }
}
