import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fresh hit of Courier's HTTP cache next to the stub pipeline it answers in: the same
/// provider, the same plugins, the answer taken from the cache's storage instead of the stub.
enum CacheBench {
    /// µs per request: `pipeline` (stubbed, no cache), `memory` or `disk` (fresh hits).
    static func run(_ variant: String, count: Int) async throws -> [String: Double] {
        let cache: HTTPCache?
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        switch variant {
        case "pipeline": cache = nil
        case "memory": cache = HTTPCache()
        case "disk": cache = HTTPCache(storage: try DiskCacheStorage(directory: folder))
        default: throw BenchError.unknown("cache-hit", variant)
        }
        let provider = Provider<StubTarget>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .response(
                        HTTPURLResponse(
                            url: target.url, statusCode: 200, httpVersion: "HTTP/1.1",
                            headerFields: ["Cache-Control": "max-age=3600", "Content-Type": "application/json"])!,
                        Payload.small)
                })
            },
            stubClosure: Provider.immediatelyStub, plugins: [NoOpPlugin(), NoOpPlugin()], cache: cache)
        for _ in 0..<500 { _ = try await provider.request(StubTarget()) }
        if cache != nil {
            guard try await provider.request(StubTarget()).cacheOutcome == .fresh else {
                throw BenchError.failed("the cache did not answer")
            }
        }
        let start = now()
        for _ in 0..<count { _ = try await provider.request(StubTarget()) }
        return ["us_per_request": (now() - start) / Double(count) * 1e6]
    }
}
