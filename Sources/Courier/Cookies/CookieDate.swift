import Foundation

/// The cookie-date algorithm of RFC 6265 §5.1.1: tokens in any order, the first time, day,
/// month and year found; two-digit years 70–99 are 19xx and 00–69 are 20xx. Anything else is no
/// date (the `Expires` attribute is then ignored).
enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` gives, or `nil`.
    static func parse(_ text: String) -> Date? {
        var parts = Parts()
        for token in tokens(text) { parts.take(token) }
        return parts.date
    }

    /// The date's pieces, each taken from the first token that fits it.
    private struct Parts {
        var time: (Int, Int, Int)?
        var day: Int?
        var month: Int?
        var year: Int?

        mutating func take(_ token: Substring) {
            if time == nil, let found = CookieDate.time(token) {
                time = found
            } else if day == nil, let found = CookieDate.digits(token, 1...2) {
                day = found
            } else if month == nil, token.count >= 3,
                let index = CookieDate.months.firstIndex(of: token.prefix(3).lowercased())
            {
                month = index + 1
            } else if year == nil, let found = CookieDate.digits(token, 2...4) {
                year = found < 70 ? found + 2000 : found < 100 ? found + 1900 : found
            }
        }

        var date: Date? {
            guard let (hour, minute, second) = time, let day, let month, let year,
                (1...31).contains(day), year >= 1601, hour <= 23, minute <= 59, second <= 59
            else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let components = DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
                return nil
            }
            return date
        }
    }

    /// The tokens between the RFC's delimiters.
    private static func tokens(_ text: String) -> [Substring] {
        text.split(whereSeparator: { character in
            guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
            switch scalar.value {
            case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: return true
            default: return false
            }
        })
    }

    /// `count` digits at the start of `token`, followed by anything but a digit.
    private static func digits(_ token: Substring, _ count: ClosedRange<Int>) -> Int? {
        let leading = token.prefix(while: \.isASCIIDigit)
        guard count.contains(leading.count) else { return nil }
        return Int(leading)
    }

    /// `h:m:s`, each one or two digits, at the start of `token`.
    private static func time(_ token: Substring) -> (Int, Int, Int)? {
        let fields = token.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        let hour = fields[0].allSatisfy(\.isASCIIDigit) ? digits(fields[0], 1...2) : nil
        let minute = fields[1].allSatisfy(\.isASCIIDigit) ? digits(fields[1], 1...2) : nil
        guard let hour, let minute, let second = digits(fields[2], 1...2) else { return nil }
        return (hour, minute, second)
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
