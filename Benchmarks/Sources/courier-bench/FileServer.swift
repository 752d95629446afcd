import CourierTesting
import Foundation

/// The fallback server when nginx is unavailable: serves a directory's files, and accepts
/// uploads at `/upload`.
enum FileServer {
    static func serve(directory: String) async throws {
        let root = URL(fileURLWithPath: directory)
        let server = try LoopbackServer { request in
            if request.path == "/upload" { return ServerReply(status: 204) }
            let file = root.appendingPathComponent(String(request.path.dropFirst()))
            guard let data = try? Data(contentsOf: file) else { return ServerReply(status: 404) }
            return ServerReply(headers: ["Cache-Control": "no-store"], body: data)
        }
        FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
        while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }

    /// Writes `small.json` (the 203-byte body), `medium.bin` (1 MiB) and `large.bin` (100 MiB).
    static func writeFixtures(to directory: String) throws {
        let root = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Payload.small.write(to: root.appendingPathComponent("small.json"))
        let mebibyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try mebibyte.write(to: root.appendingPathComponent("medium.bin"))
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("large.bin").path, contents: nil)
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent("large.bin"))
        defer { try? handle.close() }
        for _ in 0..<100 { try handle.write(contentsOf: mebibyte) }
    }
}
