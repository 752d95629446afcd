import Foundation

extension String {
    /// This text with every occurrence of `target` replaced, compared Unicode scalar by scalar.
    ///
    /// Not `replacingOccurrences(of:with:)`: it compares characters (on Linux), and a quote, a line
    /// break or a separator followed by a combining mark is one character that matches nothing, so
    /// it would survive escaping or redaction. What reaches a header, a shell or a log is scalars.
    func replacingScalars(of target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        guard !needle.isEmpty else { return self }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == needle[0], index + needle.count <= scalars.count,
                scalars[index..<index + needle.count].elementsEqual(needle)
            {
                result.append(contentsOf: replacement.unicodeScalars)
                index += needle.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}
