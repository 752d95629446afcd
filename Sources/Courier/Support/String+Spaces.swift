extension String {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpacesAndTabs: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}
