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
    var cachePolicy: URLRequest.CachePolicy? = nil
    var totalTimeoutInterval: TimeInterval? = nil
    var validationType: ValidationType { .successCodes }
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

    /// Whether every Courier temporary file made since `before` is gone, waiting up to `timeout`.
    ///
    /// Suites outside ``TemporaryFilesSuite`` run in parallel and make temporary files of their
    /// own in the same folder; theirs are deleted when their requests end, within the wait. A file
    /// a request of the caller leaked is never deleted, so the wait ends with `false`.
    static func noTemporaryFilesLeft(since before: Set<String>, timeout: TimeInterval = 10) async -> Bool {
        await waitUntil(timeout: timeout) { courierTemporaryFiles().isSubset(of: before) }
    }
}

/// A file to upload, a ``ResumableUploadServer`` on a loopback server, a folder for the uploads'
/// state, and a target posting to `/files`.
struct UploadServerSetup {
    let uploads: ResumableUploadServer
    let server: LoopbackServer
    let file: URL
    let data: Data
    let states: URL
    let target: TransferTarget

    init(size: Int, speaking: ResumableUploadProtocol = .ietfDraft) throws {
        let folder = try Scratch.folder()
        (file, data) = try Scratch.file(in: folder, name: "upload.bin", size: size)
        states = folder.appendingPathComponent("states")
        let uploads = ResumableUploadServer(speaking: speaking)
        self.uploads = uploads
        server = try LoopbackServer { uploads.reply(to: $0) }
        target = TransferTarget(baseURL: server.baseURL, path: "files", method: .post, task: .requestPlain)
    }

    /// The requests the server received, as `METHOD /path`.
    var methods: [String] { server.requests.map { "\($0.method) \($0.path)" } }

    /// The files in the state folder.
    var stateFiles: [String] { (try? FileManager.default.contentsOfDirectory(atPath: states.path)) ?? [] }
}
