import Foundation

/// The latest exchange latencies of a scope, for a hedging delay at a percentile.
struct LatencyWindow: Sendable {
    private static let capacity = 128
    /// Latencies known before a percentile is trusted.
    static let minimumSamples = 20
    private var samples: [TimeInterval] = []
    private var next = 0

    /// Adds one latency, replacing the oldest once full.
    mutating func add(_ seconds: TimeInterval) {
        if samples.count < Self.capacity {
            samples.append(seconds)
        } else {
            samples[next] = seconds
            next = (next + 1) % Self.capacity
        }
    }

    /// The latency at `fraction` (0.95 for p95), or `nil` while fewer than
    /// ``minimumSamples`` are known.
    func percentile(_ fraction: Double) -> TimeInterval? {
        guard samples.count >= Self.minimumSamples else { return nil }
        let sorted = samples.sorted()
        let index = Int((min(max(fraction, 0), 1) * Double(sorted.count - 1)).rounded(.up))
        return sorted[index]
    }
}
