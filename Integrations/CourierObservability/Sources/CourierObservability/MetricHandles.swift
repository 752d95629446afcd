import Foundation
import Metrics

/// The metric objects a ``MetricsPlugin`` has made, one per label and dimensions, so that a
/// request reuses them instead of asking the factory again. Bounded: dimensions are bounded.
final class MetricHandles: @unchecked Sendable {
    // @unchecked Sendable: the dictionaries are read and written only while holding `lock`; the
    // metric objects handed out are swift-metrics' own, which are Sendable.
    private struct Key: Hashable {
        let label: String
        let values: [String]

        init(_ label: String, _ dimensions: [(String, String)]) {
            self.label = label
            self.values = dimensions.map(\.1)
        }
    }

    /// Names targets for the dimensions.
    let names = TargetNames()
    private let factory: any MetricsFactory
    private let lock = NSLock()
    private var counters: [Key: Counter] = [:]
    private var timers: [Key: Metrics.Timer] = [:]
    private var recorders: [Key: Recorder] = [:]

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = Key(label, dimensions)
        return lock.withLock {
            if let counter = counters[key] { return counter }
            let counter = Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        let key = Key(label, dimensions)
        return lock.withLock {
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(label: label, dimensions: dimensions, factory: factory)
            timers[key] = timer
            return timer
        }
    }

    func recorder(_ label: String, _ dimensions: [(String, String)]) -> Recorder {
        let key = Key(label, dimensions)
        return lock.withLock {
            if let recorder = recorders[key] { return recorder }
            let recorder = Recorder(label: label, dimensions: dimensions, factory: factory)
            recorders[key] = recorder
            return recorder
        }
    }
}
