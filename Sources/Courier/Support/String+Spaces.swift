extension String {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }

    /// The non-negative integer these ASCII digits spell (no sign, no spaces), or `nil` for any
    /// other text or more than `maximumDigits` digits.
    func nonNegativeInteger(maximumDigits: Int) -> Int64? {
        guard !isEmpty, utf8.count <= maximumDigits,
            utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(self)
    }
}
