import Foundation

/// The three date forms of RFC 9110 §5.6.7, read strictly: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`). Anything else is no date: an `Expires` that is not one means
/// already expired, a `Date` that is not one is replaced by the receipt time.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// The date `text` gives, or `nil`.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), days.contains(String(parts[0].dropLast())),
            parts[5] == "GMT", parts[1].count == 2, parts[3].count == 4
        {
            return date(day: parts[1], month: parts[2], year: parts[3], time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), longDays.contains(String(parts[0].dropLast())), parts[3] == "GMT"
        {
            let pieces = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard pieces.count == 3, pieces[0].count == 2, pieces[2].count == 2, let short = Int(pieces[2]) else {
                return nil
            }
            // RFC 9110: a two-digit year more than 50 years ahead is in the past century.
            let year = short < 50 ? 2000 + short : 1900 + short
            return date(day: pieces[0], month: pieces[1], year: String(year), time: parts[2])
        }
        let asctime = text.split(separator: " ").map(String.init)
        if asctime.count == 5, days.contains(asctime[0]), asctime[4].count == 4,
            text.count == 24, asctime[2].count <= 2
        {
            return date(
                day: asctime[2].count == 1 ? "0" + asctime[2] : asctime[2], month: asctime[1], year: asctime[4],
                time: asctime[3])
        }
        return nil
    }

    /// The UTC date of the pieces, each in its exact form.
    private static func date(day: String, month: String, year: String, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 2, clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let monthIndex = months.firstIndex(of: month),
            let dayValue = digits(day), let yearValue = digits(year),
            let hour = digits(clock[0]), let minute = digits(clock[1]), let second = digits(clock[2]),
            (1...31).contains(dayValue), hour < 24, minute < 60, second < 61
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: yearValue, month: monthIndex + 1, day: dayValue, hour: hour, minute: minute, second: min(second, 59))
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == dayValue else {
            return nil
        }
        return date
    }

    private static func digits<Text: StringProtocol>(_ text: Text) -> Int? {
        text.allSatisfy(\.isASCIIDigit) ? Int(text) : nil
    }
}
