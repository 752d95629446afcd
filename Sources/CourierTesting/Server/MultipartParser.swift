import Foundation

/// One part of a `multipart/form-data` body, as a server parses it.
public struct MultipartPart: Sendable, Equatable {
    /// The part's headers, by name as sent.
    public let headers: [String: String]
    /// The part's content.
    public let body: Data

    /// Creates a part.
    /// - Parameters:
    ///   - headers: The part's headers.
    ///   - body: The part's content.
    public init(headers: [String: String], body: Data) {
        self.headers = headers
        self.body = body
    }
}

/// Parses `multipart/form-data` bodies the way a server does, to check in tests what an upload
/// really sent.
/// ```swift
/// let parts = MultipartParser.parse(request.body, contentType: request.header("Content-Type"))
/// ```
public enum MultipartParser {
    /// Splits `body` into its parts, or returns `nil` when it is not a well-formed multipart body
    /// for the boundary in `contentType`.
    /// - Parameters:
    ///   - body: The request body.
    ///   - contentType: The request's `Content-Type`, which names the boundary.
    /// - Returns: The parts in order, or `nil`.
    public static func parse(_ body: Data, contentType: String?) -> [MultipartPart]? {
        guard let boundary = contentType?.components(separatedBy: "boundary=").last, !boundary.isEmpty else {
            return nil
        }
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n".utf8) + delimiter
        guard body.starts(with: delimiter) else { return nil }
        var parts: [MultipartPart] = []
        var cursor = body.startIndex + delimiter.count
        while true {
            guard body.endIndex - cursor >= 2 else { return nil }
            if body[cursor..<cursor + 2] == Data("--".utf8) { return parts }  // the closing delimiter
            guard body[cursor..<cursor + 2] == Data("\r\n".utf8) else { return nil }
            cursor += 2
            guard let headEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex),
                let next = body.range(of: separator, in: headEnd.upperBound..<body.endIndex)
            else { return nil }
            parts.append(
                MultipartPart(
                    headers: headers(in: body[cursor..<headEnd.lowerBound]),
                    body: Data(body[headEnd.upperBound..<next.lowerBound])))
            cursor = next.upperBound
        }
    }

    private static func headers(in bytes: Data) -> [String: String] {
        var headers: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n") {
            let pieces = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pieces.count == 2 { headers[pieces[0]] = pieces[1] }
        }
        return headers
    }
}
