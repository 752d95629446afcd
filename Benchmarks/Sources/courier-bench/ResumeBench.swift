import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable downloads: what resuming costs next to a plain download of the same file, and what
/// a cut costs in bytes sent again.
enum ResumeBench {
    /// 100 MiB from the server (`large.bin`, nginx serves it with an `ETag` and ranges):
    /// `resumable` through `Provider.download(_:resumingInto:)`, `plain` through a download
    /// destination. Seconds and peak memory growth.
    static func whole(_ variant: String, _ baseURL: URL) async throws -> [String: Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("large.bin")
        let provider = Provider<DownloadTarget>()
        let large = DownloadTarget(baseURL: baseURL, path: "large.bin", destination: file)
        // Warm: the connection and the provider's first request.
        let warm = folder.appendingPathComponent("small.json")
        _ = try await provider.request(DownloadTarget(baseURL: baseURL, path: "small.json", destination: warm))
        let download: @Sendable () async throws -> Void
        switch variant {
        case "resumable": download = { _ = try await provider.download(large, resumingInto: file) }
        case "plain": download = { _ = try await provider.request(large) }
        default: throw BenchError.unknown("resume-whole", variant)
        }
        let baseline = Memory.currentMiB
        let start = now()
        try await download()
        let elapsed = now() - start
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        guard size == 100 << 20 else { throw BenchError.failed("file of \(size) bytes") }
        return ["seconds": elapsed, "peak_rss_growth_mib": Memory.peakMiB - baseline]
    }

    /// 100 MiB from an in-process server (``RangedResource``), `cut` five times at random bytes
    /// (each cut resumed by a retry) or `whole`: seconds, and the bytes the server sent over the
    /// file's size (what the cuts cost in bytes sent again: what was in flight when each
    /// connection closed).
    static func cuts(_ variant: String) async throws -> [String: Double] {
        let size = 100 << 20
        let block = Data((0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var body = Data(capacity: size)
        while body.count < size { body.append(block.prefix(size - body.count)) }
        let resource = RangedResource(body)
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        if variant == "cut" {
            for _ in 0..<5 { resource.cutNext(after: Int.random(in: 1...(20 << 20))) }
        } else if variant != "whole" {
            throw BenchError.unknown("resume-cuts", variant)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cut.bin")
        let retries = RetryPolicy(retryLimit: 6, exponentialBackoffScale: 0.001, jitter: .none)
        let provider = Provider<DownloadTarget>(interceptor: retries)
        let start = now()
        _ = try await provider.download(
            DownloadTarget(baseURL: server.baseURL, path: "file", destination: file), resumingInto: file)
        let elapsed = now() - start
        let written = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        guard written == size else { throw BenchError.failed("file of \(written) bytes") }
        return [
            "seconds": elapsed, "sent_again_percent": Double(resource.bytesSent - Int64(size)) * 100 / Double(size),
            "requests": Double(resource.rangesAsked.count),
        ]
    }
}
