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
            stubClosure: Provider.immediatelyStub, plugins: [NoOpPlugin(), NoOpPlugin()],
            options: ProviderOptions(cache: cache))
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

    /// A revalidation round trip against the server (a `no-cache` request answered 304, the
    /// stored body served: `revalidate`) next to the same GET without a cache (`network`); requests
    /// per second, one at a time.
    static func revalidation(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let cache: HTTPCache? = variant == "revalidate" ? HTTPCache() : nil
        guard variant == "revalidate" || variant == "network" else {
            throw BenchError.unknown("cache-revalidate", variant)
        }
        let provider = Provider<RevalidatedTarget>(
            transport: URLSessionTransport(), options: ProviderOptions(cache: cache))
        let target = RevalidatedTarget(baseURL: baseURL)
        for _ in 0..<100 { _ = try await provider.request(target) }
        if cache != nil {
            guard case .revalidated? = try await provider.request(target).cacheOutcome else {
                throw BenchError.failed("the server did not answer 304")
            }
        }
        let start = now()
        for _ in 0..<count { _ = try await provider.request(target) }
        return ["requests_per_second": Double(count) / (now() - start)]
    }
}

/// The small JSON file, storable (answered with `no-cache`, not the other files' `no-store`),
/// asked for with `Cache-Control: no-cache`: validated every time.
struct RevalidatedTarget: TargetType {
    let baseURL: URL
    var path: String { "/cacheable.json" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { ["Cache-Control": "no-cache"] }
    var validationType: ValidationType { .successCodes }
}
