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
}
