import Courier
import Foundation
import Metrics

extension MetricsPlugin {
    /// Measures an outbox: entries taken and ended, by how they ended, the waits between tries,
    /// and the entries waiting:
    ///
    /// | Metric | Kind | Dimensions |
    /// |---|---|---|
    /// | `courier.outbox.enqueued` | counter | `courier.outbox.queue` |
    /// | `courier.outbox.outcomes` | counter | `courier.outbox.queue`, `courier.outbox.outcome` (`delivered`, `rejected`, `expired`, `attemptsExhausted`, `unreadable`) |
    /// | `courier.outbox.waits` | counter | `courier.outbox.queue` |
    /// | `courier.outbox.waiting` | gauge, entries | `courier.outbox.queue` |
    /// | `courier.outbox.oldest_age` | gauge, seconds since the oldest waiting entry was taken (0 when none waits) | `courier.outbox.queue` |
    ///
    /// The tries themselves are requests, measured as every request is.
    /// - Parameters:
    ///   - activity: What the outbox did.
    ///   - target: The entry's target.
    public func didObserve(_ activity: OutboxActivity, target: (any TargetType)?) {
        guard !isNoOp else { return }
        let queue = ("courier.outbox.queue", activity.queue)
        switch activity.kind {
        case .enqueued:
            handles.counter("courier.outbox.enqueued", [queue]).increment()
        case .waiting:
            handles.counter("courier.outbox.waits", [queue]).increment()
        case .ended(let kind):
            handles.counter("courier.outbox.outcomes", [queue, ("courier.outbox.outcome", kind.rawValue)]).increment()
        }
        handles.gauge("courier.outbox.waiting", [queue]).record(activity.waitingEntries)
        let age = activity.oldestEnqueuedAt.map { max(0, activity.date.timeIntervalSince($0)) } ?? 0
        handles.gauge("courier.outbox.oldest_age", [queue]).record(age)
    }
}
