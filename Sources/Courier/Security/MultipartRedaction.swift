import Foundation

/// Hides the credentials of a `multipart/…` body: a part whose name ``Redaction/hidesField(_:)``
/// hides has its content replaced by ``Redaction/mask``; another part is redacted by its own
/// `Content-Type` (a JSON, form or nested multipart part). Headers and boundaries are kept, and so
/// is a body cut at a limit, up to where it ends.
///
/// It fails closed: a body whose boundary is missing, empty or longer than RFC 2046's 70
/// characters, that holds no delimiter, or that is nested deeper than ``maximumDepth``, reads
/// ``Redaction/mask`` whole. Delimiters count only at the start of a line (CRLF or a bare LF), so
/// the scan is linear in the body's size.
struct MultipartRedaction {
    let redaction: Redaction
    let contentType: String
    /// How many multipart bodies this one is inside.
    let depth: Int

    /// The deepest nesting read; deeper parts read ``Redaction/mask``.
    static let maximumDepth = 4

    /// `data` with its credential parts hidden.
    func redacted(_ data: Data) -> Data {
        let masked = Data(Redaction.mask.utf8)
        guard depth < Self.maximumDepth, let boundary = HeaderParameters.value(of: "boundary", in: contentType),
            !boundary.isEmpty, boundary.utf8.count <= 70
        else { return masked }
        let bytes = [UInt8](data)
        let delimiter = Array("--\(boundary)".utf8)
        let starts = Self.delimiters(delimiter, in: bytes)
        guard let first = starts.first else { return masked }
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
        guard let (headEnd, separator) = Self.headEnd(in: part[afterDelimiter...]) else { return Array(part) }
        let contentStart = headEnd + separator
        let head = String(decoding: part[afterDelimiter..<headEnd], as: UTF8.self)
        // The line break before the next delimiter belongs to it, not to the content.
        var contentEnd = part.endIndex
        if contentEnd > contentStart, part[contentEnd - 1] == 10 { contentEnd -= 1 }
        if contentEnd > contentStart, part[contentEnd - 1] == 13 { contentEnd -= 1 }
        let content = Data(part[contentStart..<contentEnd])
        let fields = Self.fields(inHead: head)
        let disposition = fields["content-disposition"] ?? ""
        let name = HeaderParameters.value(of: "name", in: disposition)
        let shown =
            name.map(redaction.hidesField) == true
            ? Data(Redaction.mask.utf8)
            : redaction.body(content, contentType: fields["content-type"], depth: depth + 1)
        return Array(part[..<contentStart]) + Array(shown) + Array(part[contentEnd...])
    }

    /// Where a part's head ends (a blank line, CRLF or LF) and the separator's length.
    private static func headEnd(in bytes: ArraySlice<UInt8>) -> (Int, Int)? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 10 {
                let next = index + 1
                if next < bytes.endIndex, bytes[next] == 10 { return (index, 2) }
                if next + 1 < bytes.endIndex, bytes[next] == 13, bytes[next + 1] == 10 { return (index, 3) }
            }
            index += 1
        }
        return nil
    }

    /// A part's header fields by lowercased name.
    private static func fields(inHead head: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in head.split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            fields[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = pair[1].trimmingCharacters(
                in: .whitespaces)
        }
        return fields
    }

    /// Where each delimiter starts: at the body's start or right after a line feed.
    private static func delimiters(_ delimiter: [UInt8], in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        // A delimiter ends its line (after optional spaces) or closes with `--`: `--b1` does not
        // start `--b10`.
        func matches(at index: Int) -> Bool {
            let end = index + delimiter.count
            guard end <= bytes.count, bytes[index..<end].elementsEqual(delimiter) else { return false }
            return end == bytes.count || [13, 10, 32, 9, UInt8(ascii: "-")].contains(bytes[end])
        }
        if matches(at: 0) { found.append(0) }
        var index = 0
        while let lineFeed = bytes[index...].firstIndex(of: 10) {
            if matches(at: lineFeed + 1) { found.append(lineFeed + 1) }
            index = lineFeed + 1
        }
        return found
    }
}
