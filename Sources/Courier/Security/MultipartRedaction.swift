import Foundation

/// Hides the credentials of a `multipart/form-data` body: a part whose name
/// ``Redaction/hidesField(_:)`` hides has its content replaced by ``Redaction/mask``; another part
/// is redacted by its own `Content-Type` (a JSON or form part). Headers and boundaries are kept,
/// and so is a body cut at a limit, up to where it ends.
struct MultipartRedaction {
    let redaction: Redaction
    let boundary: String

    private static let headerEnd = Array("\r\n\r\n".utf8)

    /// The `boundary` parameter of a multipart `Content-Type`, unquoted.
    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            let unquoted =
                value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                ? String(value.dropFirst().dropLast()) : value
            return unquoted.isEmpty ? nil : unquoted
        }
        return nil
    }

    /// `data` with its credential parts hidden.
    func redacted(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let delimiter = Array("--\(boundary)".utf8)
        let starts = Self.occurrences(of: delimiter, in: bytes)
        guard let first = starts.first else { return data }
        var shown = Array(bytes[..<first])
        for (number, start) in starts.enumerated() {
            let end = number + 1 < starts.count ? starts[number + 1] : bytes.count
            shown += redactedPart(bytes[start..<end], delimiterLength: delimiter.count)
        }
        return Data(shown)
    }

    /// One part, from its delimiter to the next one: its content hidden or redacted.
    private func redactedPart(_ part: ArraySlice<UInt8>, delimiterLength: Int) -> [UInt8] {
        let afterDelimiter = part.startIndex + delimiterLength
        guard let headEnd = Self.occurrences(of: Self.headerEnd, in: Array(part[afterDelimiter...])).first else {
            return Array(part)
        }
        let contentStart = afterDelimiter + headEnd + Self.headerEnd.count
        let head = String(decoding: part[afterDelimiter..<contentStart], as: UTF8.self)
        // The CRLF before the next delimiter belongs to it, not to the content.
        var contentEnd = part.endIndex
        if part.count >= 2, part[part.endIndex - 2] == 13, part[part.endIndex - 1] == 10, contentEnd - 2 >= contentStart
        {
            contentEnd -= 2
        }
        let content = Data(part[contentStart..<contentEnd])
        let shown: Data
        if let name = Self.parameter("name", inHead: head), redaction.hidesField(name) {
            shown = Data(Redaction.mask.utf8)
        } else {
            shown = redaction.body(content, contentType: Self.field("content-type", inHead: head))
        }
        return Array(part[..<contentStart]) + Array(shown) + Array(part[contentEnd...])
    }

    /// The value of the header field `name` (lowercased) in a part's head.
    private static func field(_ name: String, inHead head: String) -> String? {
        for line in head.split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name {
                return pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// A parameter of the part's `Content-Disposition` (`name`), unquoted.
    private static func parameter(_ name: String, inHead head: String) -> String? {
        guard let disposition = field("content-disposition", inHead: head) else { return nil }
        for parameter in disposition.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            return value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
                ? String(value.dropFirst().dropLast()) : value
        }
        return nil
    }

    /// Where `needle` starts in `bytes`, each time, left to right without overlaps.
    private static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard !needle.isEmpty, bytes.count >= needle.count else { return [] }
        var found: [Int] = []
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) {
                found.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }
}
