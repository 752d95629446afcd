import Foundation

/// The wait a server asks for in a `Retry-After` header: a number of seconds or an HTTP date.
enum RetryAfter {
    /// The delay in seconds that `value` asks for, measured from `now`, or `nil` when the value
    /// is neither a number of seconds nor an HTTP date (RFC 9110 §5.6.7, read by ``HTTPDate``,
    /// as the cache reads its dates). A date in the past gives 0.
    static func delay(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? TimeInterval(seconds) : nil
        }
        return HTTPDate.parse(trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}
