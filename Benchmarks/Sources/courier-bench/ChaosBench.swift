import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `courier-bench chaos <case> <variant> [clients]`: one run of issue 38's chaos scenario against
/// a real loopback server; `Benchmarks/chaos` runs every case and variant, alternating round by
/// round, and reports medians with their ranges.
///
/// Outage cases: 200 clients (each a request, then 100 ms of think time) run for 20 s; the server
/// is healthy for 2 s, then answers 503 (or refuses connections: it is stopped and started again
/// on the same port) for 10 s, then recovers. Variants: `RetryPolicy` without jitter (the former
/// default), `RetryPolicy` (full jitter), and `RetryPolicy` with `ResiliencePolicy.standard`.
/// The tail case: 50 clients for 10 s against a server that stalls 5 % of requests for 1 s;
/// `.standard` against `.standard` with hedging after 50 ms.
enum ChaosBench {
    /// The chaos target: a GET of `/item`.
    struct Item: TargetType {
        let baseURL: URL
        var path: String { "/item" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    /// One client request: when it started and ended (seconds since the run's start), and how.
    struct Call: Sendable {
        let start: Double
        let end: Double
        let succeeded: Bool
        /// Refused by the policy without a byte sent: the open breaker, or a held back-off.
        let refusedByPolicy: Bool
    }

    enum Outage: String, CaseIterable {
        case unavailable = "503"
        case refused = "refused"
        /// 429 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` at the window's end.
        case rateLimited = "ratelimit"
    }

    static let warmUp = 2.0
    static let outageEnd = 12.0
    static let runEnd = 20.0

    /// Runs one case (`503`, `refused`, `ratelimit` or `tail`) with one variant and prints its figures as one
    /// JSON object. One run per process: FoundationNetworking can crash under a storm of refused
    /// connections (swift-corelibs-foundation #4791), and a crash then costs one run, not all.
    static func run(_ name: String, variant: String, clients: Int) async throws {
        let figures: [String: Double]
        if name == "tail" {
            figures = try await tailRun(variant: variant, clients: clients)
        } else if let outage = Outage(rawValue: name) {
            figures = try await outageRun(outage, variant: variant, clients: clients)
        } else {
            throw BenchError.unknown("chaos " + name, variant)
        }
        var object: [String: Any] = ["case": name, "variant": variant]
        for (key, value) in figures where value.isFinite { object[key] = value }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// Counts, client side, the attempts that went to the engine (a refused connection never
    /// reaches the server's count): every attempt but a policy's refusal.
    struct AttemptClock: ObservingPlugin {
        let origin: Double
        let times = Guarded<[Double]>([])

        func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
            if case .failure(.transport(_ as ResilienceError, _)) = outcome.result { return }
            let time = now() - origin
            times.withLock { $0.append(time) }
        }
    }

    static func provider(_ variant: String, plugin: AttemptClock) -> Provider<Item> {
        let configuration = URLSessionTransport.defaultConfiguration
        configuration.httpMaximumConnectionsPerHost = 256
        let transport = URLSessionTransport(configuration: configuration)
        switch variant {
        case "retry-no-jitter":
            return Provider(transport: transport, plugins: [plugin], interceptor: .retryPolicy(jitter: .none))
        case "retry":
            return Provider(transport: transport, plugins: [plugin], interceptor: .retryPolicy)
        case "hedged":
            return Provider(
                transport: transport, plugins: [plugin], interceptor: .retryPolicy,
                options: ProviderOptions(resilience: .standard.with(hedging: Hedging(delay: .fixed(0.05)))))
        default:
            return Provider(
                transport: transport, plugins: [plugin], interceptor: .retryPolicy,
                options: ProviderOptions(resilience: .standard))
        }
    }

    /// Runs `clients` loops until `end` seconds after `origin`, each a request then `pause`.
    static func clients(
        _ count: Int, provider: Provider<Item>, url: URL, origin: Double, end: Double, pause: Double
    ) async -> [Call] {
        await withTaskGroup(of: [Call].self) { group in
            for _ in 0..<count {
                group.addTask {
                    var calls: [Call] = []
                    while now() - origin < end {
                        let start = now() - origin
                        let result = await provider.result(for: Item(baseURL: url))
                        var refused = false
                        if case .failure(.transport(let error as ResilienceError, _)) = result {
                            switch error {
                            case .circuitOpen, .backingOff, .rateLimitExhausted: refused = true
                            default: break
                            }
                        }
                        let succeeded = (try? result.get()) != nil
                        calls.append(
                            Call(start: start, end: now() - origin, succeeded: succeeded, refusedByPolicy: refused))
                        try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
                    }
                    return calls
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }
}
