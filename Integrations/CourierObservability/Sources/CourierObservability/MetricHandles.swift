import Foundation
import Metrics

/// The metric objects a ``MetricsPlugin`` has made, so that a request reuses them instead of
/// asking the factory again: one ``Family`` per target and method, holding that pair's metrics.
/// Bounded, since every dimension is.
final class MetricHandles: @unchecked Sendable {
    // @unchecked Sendable: `families` is read and written only while holding `lock`.
    private struct Key: Hashable {
        let target: String
        let method: String
    }

    /// Names targets for the dimensions.
    let names = TargetNames()
    private let factory: any MetricsFactory
    private let lock = NSLock()
    private var families: [Key: Family] = [:]

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// The metrics of one target and method.
    func family(target: String, method: String) -> Family {
        let key = Key(target: target, method: method)
        return lock.withLock {
            if let family = families[key] { return family }
            let family = Family(
                dimensions: [("courier.target", target), ("http.request.method", method)], factory: factory)
            families[key] = family
            return family
        }
    }

    /// The metrics of one target and method: those without more dimensions made at once, those
    /// per outcome on first use.
    final class Family: @unchecked Sendable {
        // @unchecked Sendable: `attempts` and `results` are read and written only while holding
        // `lock`; the rest is immutable, and swift-metrics' objects are Sendable.
        let retries: Counter
        let reauthentications: Counter
        let requestBodySize: Recorder
        let responseBodySize: Recorder
        private let dimensions: [(String, String)]
        private let factory: any MetricsFactory
        private let lock = NSLock()
        private var attempts: [String: Counter] = [:]
        private var results: [[String]: (duration: Metrics.Timer, count: Counter)] = [:]

        init(dimensions: [(String, String)], factory: any MetricsFactory) {
            self.dimensions = dimensions
            self.factory = factory
            retries = Counter(label: "courier.client.retries", dimensions: dimensions, factory: factory)
            reauthentications = Counter(
                label: "courier.client.reauthentications", dimensions: dimensions, factory: factory)
            requestBodySize = Recorder(label: "http.client.request.body.size", dimensions: dimensions, factory: factory)
            responseBodySize = Recorder(
                label: "http.client.response.body.size", dimensions: dimensions, factory: factory)
        }

        /// The attempt counter for `outcome` (`success` or an error type).
        func attempts(_ outcome: String) -> Counter {
            lock.withLock {
                if let counter = attempts[outcome] { return counter }
                let counter = Counter(
                    label: "courier.client.attempts", dimensions: dimensions + [("outcome", outcome)], factory: factory)
                attempts[outcome] = counter
                return counter
            }
        }

        /// The duration timer and request counter for a result's dimensions.
        func results(_ outcome: [(String, String)]) -> (duration: Metrics.Timer, count: Counter) {
            let key = outcome.map(\.1)
            return lock.withLock {
                if let metrics = results[key] { return metrics }
                let all = dimensions + outcome
                let metrics = (
                    Metrics.Timer(label: "http.client.request.duration", dimensions: all, factory: factory),
                    Counter(label: "courier.client.requests", dimensions: all, factory: factory)
                )
                results[key] = metrics
                return metrics
            }
        }
    }

    /// A counter made on each call: for rare events (refreshes).
    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        Counter(label: label, dimensions: dimensions, factory: factory)
    }
}
