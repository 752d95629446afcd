import Foundation

/// The parameters of a header field's value (`form-data; name="a;b"; filename*=UTF-8''x`), read
/// as RFC 9110 and RFC 2231 write them: `;` inside a quoted string does not separate, a quoted
/// value's escapes are undone, and `name*` (a charset, a language and percent-encoded text) stands
/// for `name`.
enum HeaderParameters {
    /// The value of the parameter `name` (compared without case) in `field`, or `nil`.
    static func value(of name: String, in field: String) -> String? {
        let wanted = name.lowercased()
        var extended: String?
        for (key, value) in parameters(of: field) {
            if key == wanted { return value }
            if key == wanted + "*" { extended = decodedExtended(value) }
        }
        return extended
    }

    /// Each `key=value` after the first `;`, keys lowercased, quoted values unquoted.
    static func parameters(of field: String) -> [(String, String)] {
        let pieces = QuotedString.pieces(of: field, separatedBy: ";")
        return pieces.dropFirst().compactMap { piece in
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            return (
                pair[0].trimmingCharacters(in: .whitespaces).lowercased(), pair[1].trimmingCharacters(in: .whitespaces)
            )
        }
    }

    /// RFC 2231's `charset'language'percent-encoded` value, decoded.
    private static func decodedExtended(_ value: String) -> String {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        let encoded = parts.count == 3 ? String(parts[2]) : value
        return encoded.removingPercentEncoding ?? encoded
    }
}
