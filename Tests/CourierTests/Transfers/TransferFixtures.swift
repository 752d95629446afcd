import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target for transfers against a loopback server.
struct TransferTarget: TargetType {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .post
    var task: HTTPTask
    var headers: [String: String]? = nil
    var validationType: ValidationType { .successCodes }
}

/// One part of a multipart body, as the server parsed it.
struct ParsedPart: Equatable {
    let headers: [String: String]
    let body: Data
}

enum Multipart {
    /// Parses a `multipart/form-data` body the way a server does: split on the boundary, then
    /// headers and content per part.
    static func parse(_ body: Data, contentType: String?) -> [ParsedPart]? {
        guard let boundary = contentType?.components(separatedBy: "boundary=").last else { return nil }
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n".utf8) + delimiter
        guard body.starts(with: delimiter) else { return nil }
        var parts: [ParsedPart] = []
        var cursor = body.startIndex + delimiter.count
        while true {
            guard body.count - (cursor - body.startIndex) >= 2 else { return nil }
            if body[cursor..<cursor + 2] == Data("--".utf8) { return parts }  // the closing delimiter
            cursor += 2  // CRLF after the delimiter
            guard let headEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex),
                let next = body.range(of: separator, in: headEnd.upperBound..<body.endIndex)
            else { return nil }
            let headerText = String(decoding: body[cursor..<headEnd.lowerBound], as: UTF8.self)
            var headers: [String: String] = [:]
            for line in headerText.components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pieces.count == 2 { headers[pieces[0]] = pieces[1] }
            }
            parts.append(ParsedPart(headers: headers, body: Data(body[headEnd.upperBound..<next.lowerBound])))
            cursor = next.upperBound
        }
    }
}

enum Scratch {
    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A file of `size` bytes of a repeating pattern.
    static func file(in folder: URL, name: String, size: Int) throws -> (URL, Data) {
        let block = Data((0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })  // a prime length
        var data = Data(capacity: size)
        while data.count < size { data.append(block.prefix(size - data.count)) }
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return (url, data)
    }

    /// The names of Courier's temporary files in the temporary folder.
    static func courierTemporaryFiles() -> Set<String> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("courier-download-") || $0.hasPrefix("courier-multipart-") })
    }
}
