import Foundation

/// How long a server asked its clients to wait, read from the fields of its answer: a
/// `Retry-After`, or a rate limit it says is spent and when it resets.
///
/// The rate-limit fields read, for an answer whose status says the limit was hit (a `429`, or a
/// `403` as GitHub answers one):
/// - `x-ratelimit-remaining: 0` with `x-ratelimit-reset` (GitHub, GitLab, Mastodon, Discord…);
/// - `RateLimit-Remaining: 0` with `RateLimit-Reset` (the IETF RateLimit fields draft's earlier
///   revisions);
/// - `RateLimit: "default";r=0;t=30` or `RateLimit: limit=100, remaining=0, reset=30` (its later
///   ones).
///
/// A reset above 1,000,000,000 is a time in seconds since 1970 (GitHub's `x-ratelimit-reset`);
/// a smaller one is a number of seconds from now (the draft's). A `429` needs no
/// `remaining: 0`: its status says the limit is spent. A `403` counts only with a `Retry-After`
/// or a spent limit, so that a permission denied is never mistaken for one.
struct ServerWait: Sendable, Equatable {
    /// Seconds from now until the server takes requests again.
    let seconds: TimeInterval
    /// Whether a rate limit said so (its fields, or a `Retry-After` on a `403` or `429`), rather
    /// than a `Retry-After` on an unavailable server.
    let isRateLimit: Bool

    /// The wait `fields` announce for an answer with `status`, or `nil` when they announce none.
    /// - Parameters:
    ///   - status: The answer's status.
    ///   - fields: Its header fields.
    ///   - now: The current time, for dates.
    ///   - rateLimitStatuses: The statuses that say a rate limit was hit (`403` and `429`).
    static func announced(
        status: Int, fields: HeaderFields, now: Date, rateLimitStatuses: Set<Int> = [403, 429]
    ) -> ServerWait? {
        let limited = rateLimitStatuses.contains(status)
        if let value = fields["Retry-After"], let delay = RetryAfter.delay(value, now: now) {
            return ServerWait(seconds: delay, isRateLimit: limited)
        }
        guard limited, let reset = spentLimitReset(fields, now: now, statusSaysSpent: status == 429) else {
            return nil
        }
        return ServerWait(seconds: reset, isRateLimit: true)
    }

    /// Seconds until a spent rate limit resets, when the fields say it is spent (or the status
    /// does) and when it resets.
    private static func spentLimitReset(_ fields: HeaderFields, now: Date, statusSaysSpent: Bool) -> TimeInterval? {
        var remaining: Double?
        var reset: Double?
        for prefix in ["x-ratelimit-", "ratelimit-"] {
            remaining = remaining ?? fields[prefix + "remaining"].flatMap(number)
            reset = reset ?? fields[prefix + "reset"].flatMap(number)
        }
        if let combined = fields["RateLimit"] {
            let parameters = Self.parameters(of: combined)
            remaining = remaining ?? (parameters["r"] ?? parameters["remaining"]).flatMap(number)
            reset = reset ?? (parameters["t"] ?? parameters["reset"]).flatMap(number)
        }
        guard let reset, reset >= 0, remaining == 0 || (statusSaysSpent && (remaining ?? 0) == 0) else { return nil }
        // Seconds since 1970 (GitHub), or seconds from now (the IETF draft).
        let seconds = reset > 1_000_000_000 ? reset - now.timeIntervalSince1970 : reset
        return max(0, seconds)
    }

    /// `key=value` parameters of a `RateLimit` field, whatever its revision's separators.
    private static func parameters(of value: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for item in value.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let key = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            if parameters[key] == nil { parameters[key] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return parameters
    }

    /// A non-negative decimal number, or `nil`.
    private static func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCIIDigit || $0 == "." }), let value = Double(trimmed),
            value.isFinite
        else { return nil }
        return value
    }
}
