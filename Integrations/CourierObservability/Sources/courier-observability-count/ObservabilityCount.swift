import Courier
import CourierObservability
import Dispatch
import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import Metrics
import MetricsTestKit
import Tracing

/// `courier-observability-count <variant> <requests>`: the stub pipeline with two no-op plugins
/// (variant 0), plus `LoggingPlugin` (1), `MetricsPlugin` (2), `TracingPlugin` (3) or all three
/// (4) on their APIs' no-op backends, and the same on backends that record (5–8: swift-log's
/// `InMemoryLogHandler` at `info`, swift-metrics' `TestMetrics`, swift-distributed-tracing's
/// `InMemoryTracer`); all three again on a target that names its case (`NamedTarget`) on the
/// no-op (9) and the recording backends (10). For `valgrind --tool=callgrind`: instruction counts are stable where
/// wall-clock times are not. Run each variant at two request counts and divide the difference
/// (see Benchmarks/README).
///
/// `main` is synchronous: valgrind 3.19 stops on an async `main` (see Benchmarks/count).
@main
struct ObservabilityCount {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        guard arguments.count == 2, (0...10).contains(arguments[0]) else {
            FileHandle.standardError.write(Data("usage: courier-observability-count <0-10> <requests>\n".utf8))
            exit(2)
        }
        let (variant, requests) = (arguments[0], arguments[1])
        if variant > 8 {
            run(makeProvider(variant: variant == 9 ? 4 : 8, for: NamedCountedTarget.self), .item(id: 7), requests)
        } else {
            run(makeProvider(variant: variant, for: CountedTarget.self), .item(id: 7), requests)
        }
    }

    private static func run<Target: TargetType>(_ provider: Provider<Target>, _ target: Target, _ requests: Int) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            for _ in 0..<requests {
                _ = try? await provider.request(target)
            }
            done.signal()
        }
        done.wait()
    }

    private static func makeProvider<Target: TargetType>(variant: Int, for _: Target.Type) -> Provider<Target> {
        let recording = variant > 4
        var logger = Logger(
            label: "count",
            factory: { _ -> any LogHandler in recording ? InMemoryLogHandler() : SwiftLogNoOpLogHandler() })
        logger.logLevel = .info
        let logging = LoggingPlugin(logger: logger)
        let metrics = MetricsPlugin(factory: recording ? TestMetrics() : NOOPMetricsHandler.instance)
        let tracing = recording ? TracingPlugin(tracer: InMemoryTracer()) : TracingPlugin(tracer: NoOpTracer())
        let base: [any PluginType] = [SilentPlugin(), SilentPlugin()]
        let (plugins, interceptor): ([any PluginType], (any RequestInterceptor)?) =
            switch variant {
            case 1, 5: (base + [logging], nil)
            case 2, 6: (base + [metrics], nil)
            case 3, 7: (base + [tracing], tracing)
            case 4, 8: (base + [logging, metrics, tracing], tracing)
            default: (base, nil)
            }
        return Provider(stubClosure: Provider.immediatelyStub, plugins: plugins, interceptor: interceptor)
    }
}

/// The stubbed target: a `GET` answered with a 2-byte sample; an enum with an associated value,
/// as an API's targets are, so the plugins name it by its case.
enum CountedTarget: TargetType {
    case item(id: Int)

    var baseURL: URL { URL(string: "https://bench.invalid")! }
    var path: String { "/item" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Data("{}".utf8) }
}

/// The same target, naming its case itself.
enum NamedCountedTarget: NamedTarget {
    case item(id: Int)

    var caseName: String { "item" }
    var baseURL: URL { URL(string: "https://bench.invalid")! }
    var path: String { "/item" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var sampleData: Data { Data("{}".utf8) }
}

/// A plugin with every hook left to its default.
struct SilentPlugin: PluginType {}
