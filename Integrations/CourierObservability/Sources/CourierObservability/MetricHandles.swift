import Foundation
import Metrics

/// The metric objects a ``MetricsPlugin`` has made, so that a request reuses them instead of
/// asking the factory again: one ``Family`` per target and method for Courier's per-request
/// metrics, one ``Exchanges`` per target, method and server for OpenTelemetry's per-attempt ones.
/// Bounded, since every dimension is.
final class MetricHandles: @unchecked Sendable {
    // @unchecked Sendable: `families`, `exchanges` and `active` are read and written only while
    // holding `lock`.
    private struct Key: Hashable {
        let target: String
        let method: String
    }

    private struct ServerKey: Hashable {
        let target: String
        let method: String
        let address: String
        let port: Int
    }

    /// Names targets for the dimensions.
    let names = TargetNames()
    private let factory: any MetricsFactory
    private let lock = NSLock()
    private var families: [Key: Family] = [:]
    private var exchanges: [ServerKey: Exchanges] = [:]
    /// The per-attempt metrics of each request's attempt in flight, whose active-requests meter it
    /// incremented: decremented once, and the same metrics record the attempt's outcome.
    private var active: [RequestID: Exchanges] = [:]

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// The per-request metrics of one target and method.
    func family(target: String, method: String) -> Family {
        let key = Key(target: target, method: method)
        return lock.withLock {
            if let family = families[key] { return family }
            let family = Family(
                dimensions: [("courier.target", target), (Attribute.method, method)], factory: factory)
            families[key] = family
            return family
        }
    }

    /// The per-attempt metrics of one target, method and server.
    func exchanges(target: String, method: String, server: (address: String, port: Int)) -> Exchanges {
        let key = ServerKey(target: target, method: method, address: server.address, port: server.port)
        return lock.withLock {
            if let exchanges = exchanges[key] { return exchanges }
            let made = Exchanges(
                dimensions: [
                    (Attribute.method, method), (Attribute.serverAddress, server.address),
                    (Attribute.serverPort, String(server.port)), ("courier.target", target),
                ], factory: factory)
            exchanges[key] = made
            return made
        }
    }

    /// Counts `request` as active on `exchanges`' meter until ``endActive(_:)``.
    func beginActive(_ request: RequestID, on exchanges: Exchanges) {
        let previous = lock.withLock { active.updateValue(exchanges, forKey: request) }
        exchanges.active.increment()
        previous?.active.decrement()
    }

    /// Stops counting `request` as active, if it was.
    /// - Returns: The metrics it was counted on, for its outcome.
    @discardableResult
    func endActive(_ request: RequestID) -> Exchanges? {
        let exchanges = lock.withLock { active.removeValue(forKey: request) }
        exchanges?.active.decrement()
        return exchanges
    }

    /// A counter made on each call: for rare events (refreshes, circuit transitions).
    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        Counter(label: label, dimensions: dimensions, factory: factory)
    }

    /// A gauge made on each call: for rare events (an outbox's state).
    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        Gauge(label: label, dimensions: dimensions, factory: factory)
    }
}

extension MetricHandles {
    /// The per-request metrics of one target and method: those without more dimensions made at
    /// once, those per outcome on first use.
    final class Family: @unchecked Sendable {
        // @unchecked Sendable: `attempts` and `results` are read and written only while holding
        // `lock`; the rest is immutable, and swift-metrics' objects are Sendable.
        let retries: Counter
        let reauthentications: Counter
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

        /// The request duration timer and request counter for a result's dimensions.
        func results(_ outcome: [(String, String)]) -> (duration: Metrics.Timer, count: Counter) {
            let key = outcome.map(\.1)
            return lock.withLock {
                if let metrics = results[key] { return metrics }
                let all = dimensions + outcome
                let metrics = (
                    Metrics.Timer(
                        label: "courier.client.request.duration", dimensions: all, preferredDisplayUnit: .seconds,
                        factory: factory),
                    Counter(label: "courier.client.requests", dimensions: all, factory: factory)
                )
                results[key] = metrics
                return metrics
            }
        }
    }
}
