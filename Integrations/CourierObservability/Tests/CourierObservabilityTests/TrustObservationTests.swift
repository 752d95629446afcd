import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the logging and metrics plugins say about a trust policy's refusals: each by its own
/// error type, apart from other transport failures.
@Suite("Trust refusals in the logs and metrics")
struct TrustObservationTests {
    /// An engine that enforces trust policies and whose every server fails its pins.
    private struct MismatchingEngine: Transport {
        var capabilities: TransportCapabilities { [.all, .trustPolicy] }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let pin = try SPKIPin("sha256/" + Data(repeating: 1, count: 32).base64EncodedString())
            throw TrustFailure.pinMismatch(host: request.urlRequest.url?.host ?? "", expected: [pin], chain: [])
        }
    }

    private func policy() throws -> TrustPolicy {
        var policy = TrustPolicy()
        try policy.pin(
            "shop.test",
            to: [
                "sha256/" + Data(repeating: 2, count: 32).base64EncodedString(),
                "sha256/" + Data(repeating: 3, count: 32).base64EncodedString(),
            ])
        return policy
    }

    @Test("a pin mismatch and plain HTTP to a pinned host: their error types in the log and the attempt counter")
    func refusals() async throws {
        let metrics = TestMetrics()
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "shop") { _ in handler }
        logger.logLevel = .debug
        let plugins: [any PluginType] = [MetricsPlugin(factory: metrics), LoggingPlugin(logger: logger)]
        let options = ProviderOptions(trust: try policy())
        let pinned = Provider<ShopAPI>(transport: MismatchingEngine(), plugins: plugins, options: options)
        _ = await pinned.result(for: ShopAPI(baseURL: URL(string: "https://shop.test")!, call: .items(page: 1)))
        _ = await pinned.result(for: ShopAPI(baseURL: URL(string: "http://shop.test")!, call: .items(page: 1)))

        let failures = handler.entries.filter { $0.message.description == "request failed" }
        #expect(failures.map { $0.metadata["error.type"] } == ["pinMismatch", "cleartextToPinnedHost"])
        let labels = [("courier.target", "ShopAPI"), ("http.request.method", "GET")]
        for outcome in ["pinMismatch", "cleartextToPinnedHost"] {
            #expect(
                (try? metrics.expectCounter("courier.client.attempts", labels + [("outcome", outcome)]).totalValue)
                    == 1)
        }
    }
}
