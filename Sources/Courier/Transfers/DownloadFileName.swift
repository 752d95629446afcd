import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A file name a server suggests, made safe to create in the folder an app chose.
///
/// A server is not trusted with the file system: its `Content-Disposition` name may be empty,
/// `..`, a path (`../../etc/passwd`, `/etc/passwd`, `..%2F..` in an RFC 6266 `filename*`), hold
/// NUL or control characters, start with a dot, or be too long. ``sanitized(_:)`` keeps the last
/// path component only, drops control characters, leading dots and surrounding spaces, replaces
/// `:`, and cuts the name to 255 bytes (keeping a short extension), so the result is always one
/// plain file name.
public enum DownloadFileName {
    /// The name given when a server suggests none that is usable.
    public static let fallback = "download"

    /// The longest name, in UTF-8 bytes, that common file systems accept.
    public static let maximumLength = 255

    /// The safe name for a download: the response's `Content-Disposition` file name (`filename*`
    /// before `filename`, as RFC 6266 says), else the URL's last path component, else
    /// ``fallback``; each made safe by ``sanitized(_:)``.
    /// - Parameter response: The download's response, if any.
    /// - Returns: One plain file name, never empty.
    public static func suggested(by response: HTTPURLResponse?) -> String {
        let disposition = response?.value(forHTTPHeaderField: "Content-Disposition").flatMap(dispositionName)
        return [disposition, response?.url?.lastPathComponent].lazy.compactMap { $0.flatMap(sanitized) }.first
            ?? fallback
    }

    /// `name` as one safe file name, or `nil` when nothing usable is left.
    /// - Parameter name: A name from a server.
    /// - Returns: The safe name, or `nil`.
    public static func sanitized(_ name: String) -> String? {
        // Unicode scalars, not characters: a separator followed by a combining mark is one
        // character that is not "/", yet the file system still sees the "/" (a fuzzed
        // `filename*` found it), and a dot followed by one would hide a leading dot the same way.
        let last = name.unicodeScalars.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last ?? []
        var scalars = String.UnicodeScalarView()
        for scalar in last where !isControl(scalar) {
            scalars.append(scalar == ":" ? "_" : scalar)
        }
        // Leading dots and spaces go together: ". .x" must not become ".x".
        while let first = scalars.first, first == "." || first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        guard !scalars.isEmpty else { return nil }
        return shortened(String(scalars))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// `name` cut to ``maximumLength`` bytes on a character boundary, keeping an extension of up to
    /// 16 bytes.
    private static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumLength else { return name }
        let dot = name.lastIndex(of: ".")
        let suffix = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
        var stem = Substring(suffix.isEmpty ? name : String(name[..<dot!]))
        while stem.utf8.count + suffix.utf8.count > maximumLength { stem.removeLast() }
        return stem + suffix
    }

    /// The file name of a `Content-Disposition` value: the decoded `filename*` when there is one,
    /// else `filename`.
    static func dispositionName(_ value: String) -> String? {
        let parameters = DispositionParameters(value)
        if let extended = parameters["filename*"], let decoded = decodeExtended(extended) { return decoded }
        return parameters["filename"]
    }

    /// Decodes an RFC 8187 `charset'language'value` (UTF-8 or ISO-8859-1).
    private static func decodeExtended(_ text: String) -> String? {
        let parts = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var bytes: [UInt8] = []
        var iterator = parts[2].utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        switch parts[0].lowercased() {
        case "utf-8": return String(bytes: bytes, encoding: .utf8)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}

/// The parameters of a `Content-Disposition` value, by lower-cased name (RFC 6266).
private struct DispositionParameters {
    private var values: [String: String] = [:]

    init(_ header: String) {
        var rest = Substring(header)
        // Skip the disposition type.
        guard let semicolon = rest.firstIndex(of: ";") else { return }
        rest = rest[rest.index(after: semicolon)...]
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let value: String
            (value, rest) = Self.value(from: rest)
            if values[name] == nil { values[name] = value }
            guard let next = rest.firstIndex(of: ";") else { break }
            rest = rest[rest.index(after: next)...]
        }
    }

    subscript(name: String) -> String? {
        values[name]
    }

    /// A token or quoted string at the start of `text`, and what follows it.
    private static func value(from text: Substring) -> (String, Substring) {
        guard text.first == "\"" else {
            let end = text.firstIndex(of: ";") ?? text.endIndex
            return (text[..<end].trimmingCharacters(in: .whitespaces), text[end...])
        }
        return QuotedString.split(text)
    }
}
