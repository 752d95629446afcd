import Courier
import CourierObservability
import Foundation
import Logging
import Metrics
import Tracing

/// What the observability plugins add to a stubbed request with the no-op backend of each API
/// (swift-log's no-op handler, swift-metrics' no-op factory, swift-distributed-tracing's
/// `NoOpTracer`): the stub pipeline with two no-op plugins, against the same pipeline with each
/// plugin and with all three, measured in alternating rounds in one run.
///
///     swift run -c release --package-path Integrations/CourierObservability courier-observability-bench [rounds] [count]
@main
enum ObservabilityBench {
    struct NoOpPlugin: PluginType {}

    struct StubTarget: TargetType {
        var baseURL: URL { URL(string: "https://bench.invalid")! }
        var path: String { "/item" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var sampleData: Data { Data(#"{"id":1}"#.utf8) }
    }

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let rounds = arguments.first ?? 5
        let count = arguments.dropFirst().first ?? 20_000
        let logging = LoggingPlugin(logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let metrics = MetricsPlugin(factory: NOOPMetricsHandler.instance)
        let tracing = TracingPlugin(tracer: NoOpTracer())
        let variants: [(String, [any PluginType], (any RequestInterceptor)?)] = [
            ("baseline (2 no-op plugins)", [NoOpPlugin(), NoOpPlugin()], nil),
            ("+ LoggingPlugin", [NoOpPlugin(), NoOpPlugin(), logging], nil),
            ("+ MetricsPlugin", [NoOpPlugin(), NoOpPlugin(), metrics], nil),
            ("+ TracingPlugin", [NoOpPlugin(), NoOpPlugin(), tracing], tracing),
            ("+ all three", [NoOpPlugin(), NoOpPlugin(), logging, metrics, tracing], tracing),
        ]
        // A third argument runs only that variant (1–4), for a profiler.
        let only = arguments.dropFirst(2).first
        // Paired rounds: each variant right after its own baseline run, so that the machine's
        // drift between rounds cancels out of the difference.
        var differences = [[Double]](repeating: [], count: variants.count)
        var baselines: [Double] = []
        for _ in 0..<rounds {
            for (index, variant) in variants.enumerated().dropFirst() where only == nil || index == only {
                let baseline = try await microseconds(provider(variants[0]), count: count)
                let measured = try await microseconds(provider(variant), count: count)
                baselines.append(baseline)
                differences[index].append(measured - baseline)
            }
        }
        print("rounds: \(rounds), requests per run: \(count); µs per request")
        print(String(format: "baseline (2 no-op plugins): median %.2f µs", median(baselines)))
        for (index, variant) in variants.enumerated() where !differences[index].isEmpty {
            let sorted = differences[index].sorted()
            let range = String(format: "%+.2f … %+.2f", sorted.first ?? 0, sorted.last ?? 0)
            let name = variant.0.padding(toLength: 28, withPad: " ", startingAt: 0)
            print("\(name) median difference \(String(format: "%+.2f", median(sorted))) µs   (range \(range))")
        }
    }

    static func provider(_ variant: (String, [any PluginType], (any RequestInterceptor)?)) -> Provider<StubTarget> {
        Provider<StubTarget>(stubClosure: Provider.immediatelyStub, plugins: variant.1, interceptor: variant.2)
    }

    static func microseconds(_ provider: Provider<StubTarget>, count: Int) async throws -> Double {
        for _ in 0..<500 { _ = try await provider.request(StubTarget()) }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { _ = try await provider.request(StubTarget()) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count) / 1000
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
