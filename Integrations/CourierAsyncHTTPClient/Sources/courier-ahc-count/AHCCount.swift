import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier-ahc-count <variant> <requests> <in-flight> <base-url>`: sends that many small GETs of
/// `<base-url>/small.json`, `<in-flight>` at a time (that many workers, each sending its share one
/// after another; `Benchmarks/engines` runs it at 1 and 16), through a `Provider` on `AsyncHTTPClientTransport`
/// (`courier`; `courier-timeout` with a 60 s timeout on each; `courier-total` with a 1 s timeout,
/// a 3 s total timeout and `RetryPolicy` as the interceptor, as the gateway sample's target, so
/// that each `adapt` runs within the total), through the transport alone
/// (`transport`, without the pipeline) or through raw `HTTPClient.execute` on the same client
/// (`raw`; `raw-after-courier` after 20 requests through a provider, so that the Swift runtime's
/// metadata caches hold Courier's types, as in the `courier` process; `raw-urlrequest` the same,
/// its request made from a joined and parsed URL and a `URLRequest`, the floor of any layer on
/// Foundation's `URLRequest`), for
/// `valgrind --tool=callgrind`, whose instruction counts are stable on a noisy machine where
/// request rates are not. Run at two request counts, the difference per request is
/// each path's cost on this process's threads (the pipeline, AsyncHTTPClient and SwiftNIO; the
/// server's work is in its own process).
///
/// `main` is synchronous on purpose: valgrind stops in `sigsuspend` on an async `main`. The
/// requests run in a detached task, which `main` waits for on a semaphore.
@main
struct AHCCount {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count == 4, let requests = Int(arguments[1]), let inFlight = Int(arguments[2]), inFlight > 0,
            let baseURL = URL(string: arguments[3])
        else {
            let variants = "courier|courier-timeout|courier-total|transport|raw|raw-after-courier|raw-urlrequest"
            let usage = "usage: courier-ahc-count <\(variants)> <requests> <in-flight> <base-url>\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        let variant = arguments[0]
        let done = DispatchSemaphore(value: 0)
        let failure = FailureMessage()
        Task.detached {
            do {
                try await run(variant, requests: requests, inFlight: inFlight, baseURL: baseURL)
            } catch {
                failure.record("\(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.message {
            FileHandle.standardError.write(Data("courier-ahc-count: \(message)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ variant: String, requests: Int, inFlight: Int, baseURL: URL) async throws {
        let get: @Sendable () async throws -> Int
        switch variant {
        case "courier":
            let provider = Provider<CountedTarget>(transport: AsyncHTTPClientTransport())
            let target = CountedTarget(baseURL: baseURL)
            get = { try await provider.request(target).data.count }
        case "courier-timeout":
            // Every request with a 60 s attempt limit, as many apps set.
            let provider = Provider<CountedTarget>(
                endpointClosure: {
                    Provider.defaultEndpointMapping(for: $0).replacing(options: .init(timeoutInterval: 60))
                }, transport: AsyncHTTPClientTransport())
            let target = CountedTarget(baseURL: baseURL)
            get = { try await provider.request(target).data.count }
        case "courier-total":
            let provider = Provider<CountedTarget>(
                endpointClosure: {
                    Provider.defaultEndpointMapping(for: $0).replacing(
                        options: .init(timeoutInterval: 1, totalTimeoutInterval: 3))
                }, transport: AsyncHTTPClientTransport(), interceptor: RetryPolicy())
            let target = CountedTarget(baseURL: baseURL)
            get = { try await provider.request(target).data.count }
        case "transport":
            // The transport alone, without the provider's pipeline: splits Courier's cost
            // between the two.
            let transport = AsyncHTTPClientTransport()
            let request = URLRequest(url: baseURL.appendingPathComponent("small.json"))
            get = { try await transport.send(TransportRequest(urlRequest: request)).data.count }
        case "raw-urlrequest":
            // The floor of any layer on Foundation's URLRequest: the target's URL joined and
            // parsed, a URLRequest built, and read back into AsyncHTTPClient's request. Run after
            // Courier's types are instantiated, as `raw-after-courier`.
            try await instantiateCourier(baseURL)
            let base = baseURL.absoluteString
            get = {
                guard let url = URL(string: base + "/small.json") else { throw CountFailure(description: "bad URL") }
                // A GET: URLRequest's default method, which Courier does not set either (a set
                // method is normalized with string comparisons on Linux).
                let request = URLRequest(url: url)
                var outgoing = HTTPClientRequest(url: request.url?.absoluteString ?? base)
                outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.httpMethod ?? "GET")
                for (name, value) in request.allHTTPHeaderFields ?? [:] {
                    outgoing.headers.add(name: name, value: value)
                }
                return try await fetch(outgoing)
            }
        case "raw", "raw-after-courier":
            if variant == "raw-after-courier" { try await instantiateCourier(baseURL) }
            let url = baseURL.appendingPathComponent("small.json").absoluteString
            get = { try await fetch(HTTPClientRequest(url: url)) }
        default:
            throw CountFailure(description: "unknown variant \(variant)")
        }
        // A task per worker, made once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<inFlight {
                let share = requests / inFlight + (worker < requests % inFlight ? 1 : 0)
                group.addTask {
                    for _ in 0..<share {
                        let count = try await get()
                        guard count == 203 else { throw CountFailure(description: "a body of \(count) bytes") }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

extension AHCCount {
    /// Sends 20 requests through a provider, so that the Swift runtime's metadata caches hold
    /// Courier's types, as in the `courier` variant's process: raw requests made after it pay for
    /// lookups into those caches what Courier's do.
    fileprivate static func instantiateCourier(_ baseURL: URL) async throws {
        let provider = Provider<CountedTarget>(transport: AsyncHTTPClientTransport())
        for _ in 0..<20 { _ = try await provider.request(CountedTarget(baseURL: baseURL)) }
    }

    /// Sends `request` with raw `HTTPClient.execute` on the transport's shared client.
    /// - Returns: The length of the body.
    fileprivate static func fetch(_ request: HTTPClientRequest) async throws -> Int {
        let response = try await AsyncHTTPClientTransport.sharedClient.execute(request, timeout: .seconds(30))
        return try await response.body.collect(upTo: 1 << 20).readableBytes
    }
}

/// A GET of `small.json`.
struct CountedTarget: TargetType {
    let baseURL: URL
    var path: String { "small.json" }
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// Why the run failed.
struct CountFailure: Error, CustomStringConvertible {
    let description: String
}

/// The failure of the detached task, read by `main` once the semaphore is signalled.
// @unchecked Sendable: `message` is written once by the task before it signals the semaphore
// and read by `main` only after waiting on it; the semaphore orders the two.
final class FailureMessage: @unchecked Sendable {
    private(set) var message: String?

    func record(_ text: String) {
        message = text
    }
}
