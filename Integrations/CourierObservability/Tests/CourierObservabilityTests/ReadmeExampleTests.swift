import Courier
import CourierObservability
import CourierTesting
import Foundation
import Logging
import Testing

/// The README's example, as written there (with the tests' target), so that it compiles and works.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("the three plugins, the tracing one also among the interceptors")
    func example() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        typealias Upstream = ShopAPI

        let tracing = TracingPlugin()  // InstrumentationSystem's tracer (swift-otel, say)
        let provider = Provider<Upstream>(
            plugins: [LoggingPlugin(logger: Logger(label: "upstream")), MetricsPlugin(), tracing],
            interceptor: Interceptor(interceptors: [tracing, .retryPolicy]))

        let response = try await provider.request(ShopAPI(baseURL: server.baseURL, call: .items(page: 1)))
        #expect(response.statusCode == 200)
    }
}
