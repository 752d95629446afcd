import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Small GETs over TLS through a `Provider` on `AsyncHTTPClientTransport`, one after another, to
/// price a pin check per new connection. The server's authority is the PEM file named by
/// `COURIER_BENCH_CA`; every variant trusts it alone.
///
/// Variants: `pinned` (the authority's key pinned: the transport's own connections, verified by
/// swift-certificates and then the pins, kept between requests), `pinned-fresh` (the same, each
/// request asking the server to close: a new connection and verification each time), `fresh`
/// (raw `HTTPClient.execute`, no Courier, each request with `Connection: close`: a new
/// AsyncHTTPClient connection verified by BoringSSL each time), `pooled` (no pins: Courier on
/// AsyncHTTPClient's pooled connections).
enum TLSRequests {
    private struct Get: TargetType {
        let baseURL: URL
        let trustPolicy: TrustPolicy?
        let path: String
        var method: Courier.HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    static func sequential(_ variant: String, _ baseURL: URL, count: Int) async throws -> [String: Double] {
        let fetch = try Self.fetcher(variant, baseURL)
        for _ in 0..<20 { _ = try await fetch() }
        let (start, cpu) = (now(), Requests.cpuSeconds())
        for _ in 0..<count {
            guard try await fetch() == 203 else { throw BenchFailure("wrong body") }
        }
        let (elapsed, used) = (now() - start, Requests.cpuSeconds() - cpu)
        return [
            "requests_per_second": Double(count) / elapsed,
            "cpu_us_per_request": used / Double(count) * 1e6,
            "latency_us": elapsed / Double(count) * 1e6,
        ]
    }

    /// One GET by `variant`, returning the body's length.
    private static func fetcher(_ variant: String, _ baseURL: URL) throws -> @Sendable () async throws -> Int {
        guard let path = ProcessInfo.processInfo.environment["COURIER_BENCH_CA"] else {
            throw BenchFailure("COURIER_BENCH_CA names no file")
        }
        let authority = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let certificate = try NIOSSLCertificate.fromPEMBytes(Array(authority)).first else {
            throw BenchFailure("no certificate in \(path)")
        }
        if variant == "fresh" { return try raw(baseURL, trusting: certificate) }
        var policy = TrustPolicy(roots: .only([authority]))
        if variant.hasPrefix("pinned") {
            let key = SPKIPin(subjectPublicKeyInfo: try certificate.extractPublicKey().toSPKIBytes())
            try policy.pin(
                baseURL.host ?? "127.0.0.1", to: [key.description, "sha256/" + String(repeating: "A", count: 43) + "="])
        } else if variant != "pooled" {
            throw BenchFailure("unknown variant \(variant)")
        }
        let target = Get(
            baseURL: baseURL, trustPolicy: policy, path: variant == "pinned-fresh" ? "close.json" : "small.json")
        let provider = Provider<Get>(transport: AsyncHTTPClientTransport())
        return { try await provider.request(target).data.count }
    }

    /// Raw AsyncHTTPClient, a new connection per request.
    private static func raw(_ baseURL: URL, trusting certificate: NIOSSLCertificate) throws
        -> @Sendable () async throws -> Int
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([certificate])
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let url = baseURL.appendingPathComponent("small.json").absoluteString
        return {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Connection", value: "close")
            let response = try await client.execute(request, timeout: .seconds(30))
            return try await response.body.collect(upTo: 1 << 20).readableBytes
        }
    }
}
