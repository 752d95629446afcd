import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct HTTPTarget: TargetType {
    let baseURL: URL
    let path: String
    var timeout: TimeInterval? = nil
    var timeoutInterval: TimeInterval? { timeout }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// One GET, by Courier or by raw URLSession `data(for:)`.
///
/// `raw` runs on Courier's own session configuration (`URLSessionTransport.defaultConfiguration`:
/// ephemeral, no URL cache), the fair baseline; `raw-default` on `.default`, whose URL cache costs
/// it about 15% sequentially here; `raw-completion` and `raw-delegate` on Courier's configuration
/// through URLSession's completion-handler and delegate paths.
struct Client: Sendable {
    private let provider: Provider<HTTPTarget>?
    private let session: URLSession?
    private let variant: String
    private let delegate: RawVariants.Delegate?

    init(_ variant: String) throws {
        self.variant = variant
        delegate = variant == "raw-delegate" ? RawVariants.Delegate() : nil
        switch variant {
        case "courier": (provider, session) = (Provider<HTTPTarget>(), nil)
        case "raw", "raw-completion":
            (provider, session) = (nil, URLSession(configuration: URLSessionTransport.defaultConfiguration))
        case "raw-default": (provider, session) = (nil, URLSession(configuration: .default))
        case "raw-delegate":
            let configuration = URLSessionTransport.defaultConfiguration
            (provider, session) = (
                nil, URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            )
        default: throw BenchError.unknown("http", variant)
        }
    }

    /// The body of `path`.
    func get(_ baseURL: URL, _ path: String) async throws -> Data {
        if let provider {
            return try await provider.request(HTTPTarget(baseURL: baseURL, path: path)).data
        }
        let url = baseURL.appendingPathComponent(path)
        if variant == "raw-completion" { return try await RawVariants.completion(session!, url) }
        if let delegate { return try await delegate.get(session!, url) }
        let (data, response) = try await session!.data(for: URLRequest(url: url))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchError.failed("status \(response)") }
        return data
    }
}

/// (b) sequential and (c) concurrent small GETs, and sequential 1 MiB GETs.
enum HTTPBench {
    static func sequential(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        try await sequential(variant, baseURL, path: "small.json", size: 203, count: count)
    }

    /// `count` GETs of the 1 MiB file, one after another.
    static func sequentialMebibyte(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        try await sequential(variant, baseURL, path: "medium.bin", size: 1 << 20, count: count)
    }

    private static func sequential(
        _ variant: String, _ baseURL: URL, path: String, size: Int, count: Int
    ) async throws -> [String: Double] {
        let client = try Client(variant)
        for _ in 0..<min(100, count) { _ = try await client.get(baseURL, path) }
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        let (start, cpu) = (now(), cpuSeconds())
        for _ in 0..<count {
            let begin = now()
            let data = try await client.get(baseURL, path)
            latencies.append(now() - begin)
            guard data.count == size else { throw BenchError.failed("body of \(data.count) bytes") }
        }
        let elapsed = now() - start
        latencies.sort()
        return [
            "requests_per_second": Double(count) / elapsed,
            "cpu_us_per_request": (cpuSeconds() - cpu) / Double(count) * 1e6,
            "p50_ms": latencies[count / 2] * 1000,
            "p99_ms": latencies[min(count - 1, count * 99 / 100)] * 1000,
        ]
    }

    static func concurrent(_ variant: String, _ baseURL: URL, count: Int, width: Int) async throws -> [String: Double] {
        let client = try Client(variant)
        for _ in 0..<100 { _ = try await client.get(baseURL, "small.json") }
        let (start, cpu) = (now(), cpuSeconds())
        try await inFlight(width, count: count, client, baseURL)
        return [
            "requests_per_second": Double(count) / (now() - start),
            "cpu_us_per_request": (cpuSeconds() - cpu) / Double(count) * 1e6,
        ]
    }

    /// Sends `count` GETs of `small.json` through `client`, `width` at a time (one after another
    /// when `width` is 1), and checks each body's size.
    static func inFlight(_ width: Int, count: Int, _ client: Client, _ baseURL: URL) async throws {
        let get: @Sendable () async throws -> Void = {
            let data = try await client.get(baseURL, "small.json")
            guard data.count == 203 else { throw BenchError.failed("body of \(data.count) bytes") }
        }
        guard width > 1 else {
            for _ in 0..<count { try await get() }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(width, count) {
                group.addTask(operation: get)
                started += 1
            }
            while try await group.next() != nil {
                if started < count {
                    group.addTask(operation: get)
                    started += 1
                }
            }
        }
    }
}

/// (d) 100 MiB in memory and to a file.
enum LargeBench {
    static func inMemory(_ variant: String, _ baseURL: URL) async throws -> [String: Double] {
        let client = try Client(variant)
        _ = try await client.get(baseURL, "small.json")
        let baseline = Memory.currentMiB
        let start = now()
        let data = try await client.get(baseURL, "large.bin")
        let elapsed = now() - start
        guard data.count == 100 << 20 else { throw BenchError.failed("body of \(data.count) bytes") }
        return ["seconds": elapsed, "peak_rss_growth_mib": Memory.peakMiB - baseline]
    }

    static func toFile(_ variant: String, _ baseURL: URL) async throws -> [String: Double] {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let url = baseURL.appendingPathComponent("large.bin")
        let download: @Sendable () async throws -> Void
        switch variant {
        case "courier":
            let provider = Provider<DownloadTarget>()
            _ = try await provider.request(
                DownloadTarget(baseURL: baseURL, path: "small.json", destination: destination))
            try FileManager.default.removeItem(at: destination)
            download = {
                _ = try await provider.request(
                    DownloadTarget(baseURL: baseURL, path: "large.bin", destination: destination))
            }
        case "raw":
            // URLSession's completion-handler download task, the fastest raw path on Linux.
            let session = URLSession(configuration: .ephemeral)
            _ = try await session.data(for: URLRequest(url: baseURL.appendingPathComponent("small.json")))
            download = { try await RawVariants.download(session, url, to: destination) }
        case "raw-delegate":
            // A delegate writing each chunk as it comes, on Courier's configuration.
            let delegate = RawVariants.FileDelegate()
            let session = URLSession(
                configuration: URLSessionTransport.defaultConfiguration, delegate: delegate, delegateQueue: nil)
            _ = try await session.data(for: URLRequest(url: baseURL.appendingPathComponent("small.json")))
            download = { try await delegate.download(session, url, to: destination) }
        default: throw BenchError.unknown("large-file", variant)
        }
        let baseline = Memory.currentMiB
        let start = now()
        try await download()
        let elapsed = now() - start
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int ?? 0
        guard size == 100 << 20 else { throw BenchError.failed("file of \(size) bytes") }
        return ["seconds": elapsed, "peak_rss_growth_mib": Memory.peakMiB - baseline]
    }
}

struct DownloadTarget: TargetType {
    let baseURL: URL
    let path: String
    let destination: URL
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        let destination = destination
        return .downloadDestination { _, _ in (destination, [.removePreviousFile]) }
    }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}
