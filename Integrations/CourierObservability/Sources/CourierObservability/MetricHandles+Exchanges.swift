import Foundation
import Metrics

extension MetricHandles {
    /// OpenTelemetry's per-attempt HTTP client metrics of one target, method and server: the
    /// active-requests meter made at once, the duration and body sizes per outcome on first use.
    final class Exchanges: @unchecked Sendable {
        // @unchecked Sendable: `results` is read and written only while holding `lock`; the rest
        // is immutable, and swift-metrics' objects are Sendable.
        let active: Meter
        private let dimensions: [(String, String)]
        private let factory: any MetricsFactory
        private let lock = NSLock()
        private var results: [Outcome: Results] = [:]

        /// What tells one attempt's results apart: OpenTelemetry's conditional attributes.
        struct Outcome: Hashable {
            let statusCode: Int?
            let errorType: String?
            let protocolVersion: String?
        }

        /// `http.client.request.duration` and the two body sizes.
        struct Results {
            let duration: Metrics.Timer
            let requestBodySize: Recorder
            let responseBodySize: Recorder
        }

        init(dimensions: [(String, String)], factory: any MetricsFactory) {
            self.dimensions = dimensions
            self.factory = factory
            active = Meter(
                label: "http.client.active_requests", dimensions: Array(dimensions.prefix(3)), factory: factory)
        }

        /// The duration and body-size metrics of an attempt that ended with `outcome`.
        func results(_ outcome: Outcome) -> Results {
            lock.withLock {
                if let known = results[outcome] { return known }
                var all = dimensions
                if let version = outcome.protocolVersion { all.append((Attribute.protocolVersion, version)) }
                if let status = outcome.statusCode { all.append((Attribute.statusCode, String(status))) }
                if let type = outcome.errorType { all.append((Attribute.errorType, type)) }
                let made = Results(
                    duration: Metrics.Timer(
                        label: "http.client.request.duration", dimensions: all, preferredDisplayUnit: .seconds,
                        factory: factory),
                    requestBodySize: Recorder(
                        label: "http.client.request.body.size", dimensions: all, factory: factory),
                    responseBodySize: Recorder(
                        label: "http.client.response.body.size", dimensions: all, factory: factory))
                results[outcome] = made
                return made
            }
        }
    }
}
