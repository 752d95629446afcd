import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a resumable upload keeps to resume after its process ends: the upload resource the server
/// made for it, the protocol it speaks, and the file it sends as it was when the upload began (a
/// file that changed since is uploaded again from its first byte, to a new upload resource, and
/// the old one is cancelled).
struct UploadState: Codable, Sendable, Equatable {
    /// The format of the file; another is ignored.
    var version = 1
    /// The upload resource, from the creation's `Location`.
    let location: URL
    /// The file's length and modification time when the upload began.
    let length: Int64
    let modified: Double
    /// The protocol the upload resource speaks.
    let speaking: ResumableUploadProtocol
    /// The most bytes one append may carry (the draft's `Upload-Limit: max-append-size`), or `nil`.
    let maxAppendSize: Int64?

    /// The state of an upload of `identity` (a file's path, a stream's identifier; see
    /// ``UploadSource/Content/identity``) to `request`'s resource, in `directory`: its name is a digest
    /// of the method, the URL without its query, and the identity, so that the state of a file
    /// that changed is found, and its upload cancelled, rather than left behind.
    static func url(in directory: URL, request: URLRequest, identity: String) -> URL {
        let key = [request.httpMethod ?? "GET", ResumeState.resource(of: request.url), identity]
            .joined(separator: "\n")
        return directory.appendingPathComponent("upload-\(SHA256.hex(Array(key.utf8))).json")
    }

    /// Whether this state is for `source` as it is now, sent by `speaking`.
    func matches(_ source: UploadSource, speaking: ResumableUploadProtocol) -> Bool {
        version == 1 && length == source.length && modified == source.modified && self.speaking == speaking
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
