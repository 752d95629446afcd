import Foundation

extension MultipartFormData {
    /// An encoded body: in memory, or in a temporary file that its owner deletes.
    /// A form encoded for an upload: what any engine sends, with its length known.
    public enum EncodedBody: Sendable {
        /// The whole body, in memory.
        case data(Data)
        /// A temporary file holding the body; delete it once the upload ends.
        case temporaryFile(URL)
    }

    /// The size of the encoded body, in bytes.
    /// - Throws: ``TransferError/fileNotReadable(_:)`` for a missing file part.
    public func contentLength() throws(TransferError) -> UInt64 {
        var total = UInt64(closingBoundary.count)
        for part in parts {
            total += UInt64(header(of: part).count) + 2  // the part's closing CRLF
            switch part.content {
            case .data(let data): total += UInt64(data.count)
            case .file(let url): total += try Self.size(of: url)
            case .stream(_, let length): total += length
            }
        }
        return total
    }

    /// The whole body in memory.
    /// - Returns: The encoded body.
    /// - Throws: ``TransferError`` when a file or a stream part cannot be read.
    public func encoded() throws(TransferError) -> Data {
        var data = Data()
        try encode { data.append($0) }
        return data
    }

    /// Writes the whole body to a file, a chunk at a time.
    /// - Parameter fileURL: Where to write; an existing file is replaced.
    /// - Throws: ``TransferError`` when a part cannot be read or the file cannot be written.
    public func write(to fileURL: URL) throws(TransferError) {
        guard try FileStreams.write(to: fileURL, { write throws(TransferError) in try encode(write) }) else {
            throw .cannotWriteFile(fileURL)
        }
    }

    /// The body for an upload, as any transport sends it: in memory up to
    /// ``encodingMemoryThreshold``, otherwise written to a new temporary file, which the caller
    /// deletes once the upload ends. Its length is ``contentLength()``.
    /// - Returns: The encoded body.
    /// - Throws: ``TransferError`` when a part cannot be read or the file cannot be written.
    public func encodedForUpload() throws(TransferError) -> EncodedBody {
        guard try contentLength() > encodingMemoryThreshold else { return .data(try encoded()) }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-multipart-\(UUID().uuidString).body")
        do {
            try write(to: file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return .temporaryFile(file)
    }

    var closingBoundary: Data { Data("--\(boundary)--\r\n".utf8) }

    func header(of part: Part) -> Data {
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let fileName = part.fileName { text += "; filename=\"\(Self.escape(fileName))\"" }
        text += "\r\n"
        if let mimeType = part.mimeType { text += "Content-Type: \(Self.headerValue(mimeType))\r\n" }
        return Data((text + "\r\n").utf8)
    }

    /// Hands the encoded body to `write`, a chunk at a time.
    private func encode(_ write: (Data) -> Void) throws(TransferError) {
        let lineBreak = Data("\r\n".utf8)
        for part in parts {
            write(header(of: part))
            switch part.content {
            case .data(let data): write(data)
            case .file(let url): try Self.copyFile(url, to: write)
            case .stream(let makeStream, let length):
                try Self.copyStream(makeStream, length: length, part: part.name, to: write)
            }
            write(lineBreak)
        }
        write(closingBoundary)
    }

    /// Quotes and line breaks escaped as HTML forms do, so a name cannot break the header; by
    /// scalar, so that none followed by a combining mark survives.
    private static func escape(_ text: String) -> String {
        text.replacingScalars(of: "\"", with: "%22").replacingScalars(of: "\r", with: "%0D")
            .replacingScalars(of: "\n", with: "%0A")
    }

    /// A header value without line breaks, so it cannot start another header (found by fuzzing).
    private static func headerValue(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }

    private static let chunkSize = 64 * 1024

    static func size(of url: URL) throws(TransferError) -> UInt64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? NSNumber
        else { throw .fileNotReadable(url) }
        return size.uint64Value
    }

    private static func copyFile(_ url: URL, to write: (Data) -> Void) throws(TransferError) {
        guard FileStreams.read(url, chunkSize: chunkSize, write) else { throw .fileNotReadable(url) }
    }

    private static func copyStream(
        _ makeStream: @Sendable () throws -> InputStream, length: UInt64, part: String, to write: (Data) -> Void
    ) throws(TransferError) {
        guard let stream = try? makeStream() else { throw .streamFailed(part: part) }
        // One byte past the declared length is enough to know the stream gives too many.
        var total: UInt64 = 0
        let limit = length < UInt64(Int.max) ? Int(length) + 1 : Int.max
        let read = FileStreams.read(stream, chunkSize: chunkSize, limit: limit) { chunk in
            total += UInt64(chunk.count)
            if total <= length { write(chunk) }
        }
        guard read else { throw .streamFailed(part: part) }
        if total != length { throw .streamLengthMismatch(part: part, expected: length, actual: total) }
    }
}
