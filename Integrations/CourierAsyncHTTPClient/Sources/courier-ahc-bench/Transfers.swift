import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download of one path to a file.
struct DownloadTarget: TargetType {
    let baseURL: URL
    let path: String
    let destination: URL
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { .downloadDestination { _, _ in (destination, [.removePreviousFile]) } }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// A multipart upload.
struct UploadTarget: TargetType {
    let baseURL: URL
    let form: MultipartFormData
    var path: String { "upload" }
    var method: Courier.HTTPMethod { .post }
    var task: HTTPTask { .uploadMultipartFormData(form) }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// 100 MiB to a file, and a 1 GiB multipart upload: time and peak memory growth.
enum Transfers {
    static func toFile(_ variant: String, _ baseURL: URL) async throws -> [String: Double] {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ahc-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: destination) }
        let download: @Sendable () async throws -> Void
        switch variant {
        case "courier":
            let provider = Provider<DownloadTarget>(transport: AsyncHTTPClientTransport())
            _ = try await provider.request(
                DownloadTarget(baseURL: baseURL, path: "small.json", destination: destination))
            download = {
                _ = try await provider.request(
                    DownloadTarget(baseURL: baseURL, path: "large.bin", destination: destination))
            }
        case "raw":
            let client = AsyncHTTPClientTransport.sharedClient
            _ = try await client.execute(
                HTTPClientRequest(url: baseURL.appendingPathComponent("small.json").absoluteString),
                timeout: .seconds(30)
            ).body.collect(upTo: 1 << 20)
            download = {
                let request = HTTPClientRequest(url: baseURL.appendingPathComponent("large.bin").absoluteString)
                let response = try await client.execute(request, timeout: .seconds(300))
                _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
                let handle = try FileHandle(forWritingTo: destination)
                defer { try? handle.close() }
                for try await buffer in response.body {
                    try handle.write(contentsOf: Data(buffer: buffer, byteTransferStrategy: .noCopy))
                }
            }
        default: throw BenchFailure("unknown variant \(variant)")
        }
        let baseline = Memory.currentMiB
        let start = now()
        try await download()
        let elapsed = now() - start
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int ?? 0
        guard size == 100 << 20 else { throw BenchFailure("file of \(size) bytes") }
        return ["seconds": elapsed, "peak_rss_growth_mib": Memory.peakMiB - baseline]
    }

    static func multipart(_ variant: String, _ baseURL: URL, mebibytes: Int) async throws -> [String: Double] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ahc-bench-\(UUID()).bin")
        try writeFile(file, mebibytes: mebibytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let baseline = Memory.currentMiB
        let start = now()
        switch variant {
        case "courier":
            var form = MultipartFormData()
            form.append(Data("benchmark".utf8), name: "title")
            form.append(fileURL: file, name: "file")
            let provider = Provider<UploadTarget>(transport: AsyncHTTPClientTransport())
            _ = try await provider.request(UploadTarget(baseURL: baseURL, form: form))
        case "raw":
            var request = HTTPClientRequest(url: baseURL.appendingPathComponent("upload").absoluteString)
            request.method = .POST
            request.body = .stream(FileChunks(url: file), length: .known(Int64(mebibytes) << 20))
            let response = try await AsyncHTTPClientTransport.sharedClient.execute(request, timeout: .seconds(600))
            guard response.status.code < 300 else { throw BenchFailure("status \(response.status)") }
        default: throw BenchFailure("unknown variant \(variant)")
        }
        return [
            "seconds": now() - start, "peak_rss_growth_mib": Memory.peakMiB - baseline, "mebibytes": Double(mebibytes),
        ]
    }

    private static func writeFile(_ url: URL, mebibytes: Int) throws {
        let block = Data(repeating: 0x5A, count: 1 << 20)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        for _ in 0..<mebibytes { try handle.write(contentsOf: block) }
    }
}

/// A file read in 64 KiB chunks: the raw baseline's upload body.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url))
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 64 << 10), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            return ByteBuffer(data: data)
        }
    }
}
