import Foundation

/// The wait a server asks for in a `Retry-After` header: a number of seconds or an HTTP date.
enum RetryAfter {
    /// The delay in seconds that `value` asks for, measured from `now`, or `nil` when the value
    /// is neither a number of seconds nor an HTTP date. A date in the past gives 0.
    static func delay(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) {
            return seconds >= 0 ? TimeInterval(seconds) : nil
        }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }

    /// The three date forms HTTP allows (RFC 9110, section 5.6.7): IMF-fixdate, the obsolete
    /// RFC 850 form, and asctime.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]
}
