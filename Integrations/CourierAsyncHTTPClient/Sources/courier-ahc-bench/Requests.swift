import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A GET of one path.
struct BenchTarget: TargetType {
    let baseURL: URL
    let path: String
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// One small GET by the variant under test.
struct Getter: Sendable {
    private let fetch: @Sendable (URL, String) async throws -> Int

    init(_ variant: String) throws {
        switch variant {
        case "courier":
            let provider = Provider<BenchTarget>(transport: AsyncHTTPClientTransport())
            fetch = { try await provider.request(BenchTarget(baseURL: $0, path: $1)).data.count }
        case "raw":
            let client = AsyncHTTPClientTransport.sharedClient
            fetch = { baseURL, path in
                let response = try await client.execute(
                    HTTPClientRequest(url: baseURL.appendingPathComponent(path).absoluteString), timeout: .seconds(30))
                guard response.status == .ok else { throw BenchFailure("status \(response.status)") }
                return try await response.body.collect(upTo: 1 << 20).readableBytes
            }
        case "urlsession":
            let session = URLSession(configuration: .ephemeral)
            fetch = { baseURL, path in
                try await session.data(for: URLRequest(url: baseURL.appendingPathComponent(path))).0.count
            }
        default: throw BenchFailure("unknown variant \(variant)")
        }
    }

    func get(_ baseURL: URL, _ path: String) async throws -> Int {
        try await fetch(baseURL, path)
    }
}

/// Sequential and 32-in-flight small GETs: requests per second and CPU time per request.
enum Requests {
    static func sequential(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let getter = try Getter(variant)
        for _ in 0..<100 { _ = try await getter.get(baseURL, "small.json") }
        let (start, cpu) = (now(), cpuSeconds())
        for _ in 0..<count {
            guard try await getter.get(baseURL, "small.json") == 203 else { throw BenchFailure("wrong body") }
        }
        let elapsed = now() - start
        return [
            "requests_per_second": Double(count) / elapsed,
            "cpu_us_per_request": (cpuSeconds() - cpu) / Double(count) * 1e6,
        ]
    }

    static func concurrent(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let getter = try Getter(variant)
        for _ in 0..<100 { _ = try await getter.get(baseURL, "small.json") }
        let (start, cpu) = (now(), cpuSeconds())
        try await inFlight(32, count: count, getter, baseURL)
        let elapsed = now() - start
        return [
            "requests_per_second": Double(count) / elapsed,
            "cpu_us_per_request": (cpuSeconds() - cpu) / Double(count) * 1e6,
        ]
    }

    /// Sends `count` GETs of `small.json` through `getter`, `width` at a time (one after another
    /// when `width` is 1).
    static func inFlight(_ width: Int, count: Int, _ getter: Getter, _ baseURL: URL) async throws {
        guard width > 1 else {
            for _ in 0..<count {
                guard try await getter.get(baseURL, "small.json") == 203 else { throw BenchFailure("wrong body") }
            }
            return
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < width && started < count {
                group.addTask { _ = try await getter.get(baseURL, "small.json") }
                started += 1
            }
            while try await group.next() != nil {
                if started < count {
                    group.addTask { _ = try await getter.get(baseURL, "small.json") }
                    started += 1
                }
            }
        }
    }

    /// `RUSAGE_SELF`, typed as this platform's `getrusage` takes it (an enum case on Glibc).
    #if canImport(Glibc)
        private static let rusageSelf = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
        private static let rusageSelf = RUSAGE_SELF
    #endif

    /// The CPU time this process has used, user and system.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(Self.rusageSelf, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
