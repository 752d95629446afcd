import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a resumable upload keeps to resume after its process ends: the upload resource the server
/// made for it, and the file it sends as it was when the upload began (a file that changed since
/// is uploaded again from its first byte, to a new upload resource).
struct UploadState: Codable, Sendable, Equatable {
    /// The format of the file; another is ignored.
    var version = 1
    /// The upload resource, from the creation's `Location`.
    let location: URL
    /// The file's length and modification time when the upload began.
    let length: Int64
    let modified: Double

    /// The state of an upload of `file` to `request`'s resource, in `directory`: its name is a
    /// digest of the method, the URL without its query, and the file's path, length and
    /// modification time.
    static func url(in directory: URL, request: URLRequest, file: UploadSource) -> URL {
        let key = [
            request.httpMethod ?? "GET", ResumeState.resource(of: request.url), file.url.standardizedFileURL.path,
            String(file.length), String(file.modified),
        ].joined(separator: "\n")
        return directory.appendingPathComponent("upload-\(SHA256.hex(Array(key.utf8))).json")
    }

    /// Whether this state is for `file` as it is now.
    func matches(_ file: UploadSource) -> Bool {
        version == 1 && length == file.length && modified == file.modified
    }

    /// Reads the state at `url`; `nil` when there is none or it cannot be read.
    static func read(_ url: URL) -> UploadState? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Self.self, from: data)
    }

    /// Writes the state to `url` in one rename, its folder created when missing.
    /// - Returns: `false` when it could not be written.
    func write(to url: URL) -> Bool {
        guard let data = try? JSONEncoder().encode(self) else { return false }
        return data.writeReplacing(url)
    }
}

/// The file a resumable upload sends: its length and modification time, and its bytes from any
/// offset, read as they are sent.
struct UploadSource: Sendable {
    let url: URL
    let length: Int64
    let modified: Double

    /// - Throws: ``TransferError/fileNotReadable(_:)`` when `url` is not a readable regular file.
    init(_ url: URL) throws(TransferError) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber,
            FileManager.default.isReadableFile(atPath: url.path)
        else { throw .fileNotReadable(url) }
        self.url = url
        length = size.int64Value
        modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    }

    /// The bytes from `offset` to the end, as a body read while it is sent.
    func body(from offset: Int64) -> UploadStream {
        let url = url
        let stream = UploadStream(length: UInt64(length - offset)) {
            guard let stream = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
            // Set before the stream is opened: it starts there (file streams support it on
            // every platform).
            _ = stream.setProperty(NSNumber(value: offset), forKey: .fileCurrentOffsetKey)
            return stream
        }
        return stream
    }
}
