import Foundation

/// Two counts over the last `duration` seconds, kept in ten slices that expire one at a time:
/// requests and retries for a budget, successes and failures for a breaker.
struct SlidingWindow: Sendable {
    private struct Slice {
        var index = Int.min
        var first = 0
        var second = 0
    }

    private static let sliceCount = 10
    private let sliceWidth: TimeInterval
    private var slices = [Slice](repeating: Slice(), count: SlidingWindow.sliceCount)

    /// A window of `duration` seconds.
    init(duration: TimeInterval) {
        sliceWidth = max(duration, 0.001) / Double(Self.sliceCount)
    }

    /// Counts `first` and `second` at time `now`.
    mutating func add(first: Int = 0, second: Int = 0, now: TimeInterval) {
        let index = Int((now / sliceWidth).rounded(.down))
        let slot = ((index % Self.sliceCount) + Self.sliceCount) % Self.sliceCount
        if slices[slot].index != index { slices[slot] = Slice(index: index) }
        slices[slot].first += first
        slices[slot].second += second
    }

    /// The counts of the slices that are still within the window at `now`.
    func totals(now: TimeInterval) -> (first: Int, second: Int) {
        let current = Int((now / sliceWidth).rounded(.down))
        var totals = (first: 0, second: 0)
        for slice in slices where slice.index > current - Self.sliceCount && slice.index <= current {
            totals.first += slice.first
            totals.second += slice.second
        }
        return totals
    }

    /// Forgets every count.
    mutating func reset() {
        slices = [Slice](repeating: Slice(), count: Self.sliceCount)
    }
}
