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
        let parsed = stored.parsedFields
        directives = parsed.directives
        let date = parsed.date ?? stored.responseDate
        let apparentAge = max(0, stored.responseDate.timeIntervalSince(date))
        let correctedAge = parsed.age + stored.responseDate.timeIntervalSince(stored.requestDate)
        currentAge = max(apparentAge, correctedAge) + now.timeIntervalSince(stored.responseDate)
        lifetime = Self.lifetime(parsed, date: date, status: stored.statusCode, fraction: heuristicFraction)
    }

    /// The first member of an `Age` line, without the blanks around it, when it is digits only
    /// (its first 11 read); read from the bytes, as Foundation's trimming costs thousands of
    /// instructions on Linux.
    static func age(_ line: String) -> Int? {
        let member = line.utf8.prefix { $0 != UInt8(ascii: ",") }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = member.firstIndex(where: { !isBlank($0) }),
            let last = member.lastIndex(where: { !isBlank($0) })
        else { return nil }
        let digits = member[start...last]
        guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return digits.prefix(11).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// §4.2.1–§4.2.2: `max-age`, else `Expires − Date`, else the heuristic.
    private static func lifetime(
        _ parsed: CachedResponse.Parsed, date: Date, status: Int, fraction: Double
    ) -> TimeInterval {
        if let maxAge = parsed.directives.seconds("max-age") { return TimeInterval(maxAge.value(invalid: 0)) }
        if let expires = parsed.expires {
            // An invalid Expires (notably "0"), or two of them, means already expired (§5.3).
            guard let when = expires else { return 0 }
            return max(0, when.timeIntervalSince(date))
        }
        guard heuristicallyCacheable.contains(status) || parsed.directives.has("public"),
            let modified = parsed.lastModified
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
