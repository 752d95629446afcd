import Foundation

/// What a resumable upload sends, as it is when the attempt begins: a file (its length and
/// modification time read now) or a replayable stream of known length, and its bytes from any
/// offset, read as they are sent.
struct UploadSource: Sendable {
    /// Where the bytes come from.
    enum Content: Sendable {
        /// A file, read from any offset.
        case file(URL)
        /// A replayable stream of known length, made again and read past the bytes the server has.
        case stream(UploadStream, identifier: String)

        /// The content's name for the server: the file's name, or the stream's identifier.
        var name: String {
            switch self {
            case .file(let url): url.lastPathComponent
            case .stream(_, let identifier): identifier
            }
        }

        /// What names the content in the upload's state: the file's path, or the stream's
        /// identifier.
        var identity: String {
            switch self {
            case .file(let url): "file:" + url.standardizedFileURL.path
            case .stream(_, let identifier): "stream:" + identifier
            }
        }
    }

    let content: Content
    let length: Int64
    /// The file's modification time (seconds since 1970), `0` for a stream.
    let modified: Double

    /// - Throws: ``TransferError/fileNotReadable(_:)`` when a file is not a readable regular file,
    ///   ``TransferError/streamNotReplayable`` or ``TransferError/uploadLengthUnknown`` for a
    ///   stream that cannot be resumed.
    init(_ content: Content) throws(TransferError) {
        self.content = content
        switch content {
        case .file(let url):
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber,
                FileManager.default.isReadableFile(atPath: url.path)
            else { throw .fileNotReadable(url) }
            length = size.int64Value
            modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        case .stream(let stream, _):
            guard stream.isReplayable else { throw .streamNotReplayable }
            guard let length = stream.length, length <= UInt64(Int64.max) else { throw .uploadLengthUnknown }
            self.length = Int64(length)
            modified = 0
        }
    }

    /// The whole content, as the body of one plain request.
    var whole: TransportRequest.Body {
        switch content {
        case .file(let url): .file(url)
        case .stream(let stream, _): .stream(stream)
        }
    }

    /// The `count` bytes from `offset`, as a body read while it is sent. The rest of a file is read
    /// by an `InputStream` that starts at `offset` (an engine sends it as it reads); a part of a file,
    /// and any part of a stream, is read as chunks, the bytes before `offset` skipped.
    func body(from offset: Int64, count: Int64) -> UploadStream {
        switch content {
        case .file(let url) where offset + count == length:
            return UploadStream(length: UInt64(count)) { try Self.stream(of: url, from: offset) }
        case .file(let url):
            return UploadStream(length: UInt64(count)) {
                SlicedChunks(skipping: 0, count: count) {
                    UploadStream.Chunks(reading: try Self.stream(of: url, from: offset))
                }
            }
        case .stream(let stream, _):
            return UploadStream(length: UInt64(count)) {
                SlicedChunks(skipping: offset, count: count, make: { try stream.chunks() })
            }
        }
    }

    /// A stream of the file at `url` from byte `offset`.
    private static func stream(of url: URL, from offset: Int64) throws -> InputStream {
        guard let stream = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
        // Set before the stream is opened: it starts there (file streams support it on every
        // platform).
        _ = stream.setProperty(NSNumber(value: offset), forKey: .fileCurrentOffsetKey)
        return stream
    }
}
