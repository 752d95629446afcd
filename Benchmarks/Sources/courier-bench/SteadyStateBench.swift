import Courier
import Foundation
import RawURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a long-running process sees: memory that stays flat, and cancellations that end at once.
enum SteadyStateBench {
    /// One GET, by Courier (`courier`, or `courier-timeout` with a 60 s timeout on every request)
    /// or by raw URLSession `data(for:)` on Courier's own session configuration (`raw`).
    private static func getter(_ variant: String, _ baseURL: URL) throws -> @Sendable (String) async throws -> Void {
        switch variant {
        case "courier", "courier-timeout":
            let provider = Provider<HTTPTarget>()
            let timeout: TimeInterval? = variant == "courier" ? nil : 60
            return { path in _ = try await provider.request(HTTPTarget(baseURL: baseURL, path: path, timeout: timeout))
            }
        case "raw":
            // A completion-handler data task that the Swift task's cancellation cancels: on Linux
            // the async `data(for:)` never returns once cancelled mid-transfer (seen here: a hang).
            let session = URLSession(configuration: URLSessionTransport.defaultConfiguration)
            return { path in _ = try await RawURLSession.cancellable(session, baseURL.appendingPathComponent(path)) }
        default: throw BenchError.unknown("steady", variant)
        }
    }

    /// Runs `count` GETs of `path`, `width` in flight.
    private static func run(
        _ count: Int, width: Int, _ get: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<min(width, count) { group.addTask { try await get("small.json") } }
            var started = min(width, count)
            while try await group.next() != nil, started < count {
                group.addTask { try await get("small.json") }
                started += 1
            }
        }
    }

    /// RSS growth over `count` GETs at 64 in flight, after 5,000 to warm up, in MiB per 10,000.
    static func rssGrowth(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let get = try getter(variant, baseURL)
        try await run(5_000, width: 64, get)
        let before = Memory.currentMiB
        try await run(count, width: 64, get)
        let growth = Memory.currentMiB - before
        return ["rss_growth_mib_per_10k": growth * 10_000 / Double(count)]
    }

    /// `count` GETs of a 1 MiB file, 16 in flight, each cancelled 0–4 ms after it starts: the
    /// time from `cancel()` to the caller's completion, in ms.
    static func cancelLatency(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let get = try getter(variant, baseURL)
        try await run(200, width: 16, get)
        var latencies: [Double] = []
        try await withThrowingTaskGroup(of: Double.self) { group in
            for index in 0..<count {
                if index >= 16, let latency = try await group.next() { latencies.append(latency) }
                group.addTask {
                    let request = Task { try await get("medium.bin") }
                    try await Task.sleep(nanoseconds: UInt64.random(in: 0...4_000_000))
                    let start = now()
                    request.cancel()
                    _ = await request.result
                    return (now() - start) * 1000
                }
            }
            for try await latency in group { latencies.append(latency) }
        }
        let sorted = latencies.sorted()
        return [
            "p50_ms": sorted[sorted.count / 2], "p99_ms": sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
            "max_ms": sorted.last ?? 0,
        ]
    }
}
