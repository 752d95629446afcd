// Generated from Integrations/CourierObservability/README.md by ReadmeSnippetsTests: do not edit.
// Update: COURIER_UPDATE_SAMPLES=1 swift test --filter ReadmeSnippets
// swift-format-ignore-file

import CourierObservability
import Logging

@Sendable func readmeObservability1() async throws {

    let tracing = TracingPlugin()   // InstrumentationSystem's tracer (swift-otel, say)
    let provider = Provider<Upstream>(
        plugins: [LoggingPlugin(logger: Logger(label: "upstream")), MetricsPlugin(), tracing],
        interceptor: Interceptor(interceptors: [tracing, .retryPolicy]))
    _ = tracing
    _ = provider
}

extension Upstream: NamedTarget {
    var caseName: String {
        switch self {
        case .user: "user"
        case .zen: "zen"
        }
    }
}
