/// A `Content-Range` field of a byte range (RFC 9110 §14.4): `bytes 100-199/1000`, `bytes
/// 100-199/*`, or `bytes */1000` in a 416.
struct ContentRange: Sendable, Hashable {
    /// The first and last byte sent, or `nil` for an unsatisfied range (`bytes */1000`).
    let bytes: ClosedRange<Int64>?
    /// The representation's whole length, or `nil` when the server does not know it (`*`).
    let total: Int64?

    /// Parses `text`; `nil` for anything but a single, well-formed byte range.
    init?(_ text: String) {
        let trimmed = text.trimmingSpacesAndTabs
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = trimmed.dropFirst(6).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let range = String(parts[0]).trimmingSpacesAndTabs
        let length = String(parts[1]).trimmingSpacesAndTabs
        if length == "*" {
            total = nil
        } else {
            guard let whole = Self.number(length) else { return nil }
            total = whole
        }
        if range == "*" {
            guard total != nil else { return nil }
            bytes = nil
            return
        }
        let ends = range.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Self.number(String(ends[0])), let last = Self.number(String(ends[1])),
            first <= last
        else { return nil }
        if let total, last >= total { return nil }
        bytes = first...last
    }

    /// Digits only (no sign, no spaces inside), at most 18 of them.
    private static func number(_ text: String) -> Int64? {
        text.nonNegativeInteger(maximumDigits: 18)
    }
}
