import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UploadTarget: TargetType {
    let baseURL: URL
    let form: MultipartFormData
    var path: String { "upload" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .uploadMultipartFormData(form) }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// (e) A multipart upload of a large file: peak memory and time. The raw baseline uploads the
/// same file (not multipart) with `upload(for:fromFile:)`.
enum UploadBench {
    static func multipart(_ variant: String, _ baseURL: URL, mebibytes: Int) async throws -> [String: Double] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-\(UUID().uuidString).bin")
        try writeFile(file, mebibytes: mebibytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let baseline = Memory.currentMiB
        let start = now()
        switch variant {
        case "courier":
            var form = MultipartFormData()
            form.append(Data("benchmark".utf8), name: "title")
            form.append(fileURL: file, name: "file")
            _ = try await Provider<UploadTarget>().request(UploadTarget(baseURL: baseURL, form: form))
        case "raw":
            var request = URLRequest(url: baseURL.appendingPathComponent("upload"))
            request.httpMethod = "POST"
            _ = try await URLSession(configuration: .ephemeral).upload(for: request, fromFile: file)
        default:
            throw BenchError.unknown("multipart", variant)
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
