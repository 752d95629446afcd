/// Where an exchange reports its transfer's progress: one caller's ``ProgressReporter``, or every
/// caller of an exchange that several share. Class-bound: an attempt copies its sink a few
/// times, and a copy is then one retain instead of a copy through the existential's witnesses.
protocol ProgressSink: AnyObject, Sendable {
    /// Passes on a transfer report.
    func report(_ progress: TransferProgress)
    /// Returns once every report so far has reached its caller.
    func flush() async
}

extension ProgressReporter: ProgressSink {}

/// The progress of an exchange that several callers share (`trackInflights`): each caller gets
/// its own reports, from when it joins until it leaves, and none after.
final class ProgressFanOut: ProgressSink {
    private let reporters = Locked<[UInt64: ProgressReporter]>([:])

    /// Starts reporting to `caller`'s reporter, if it has one.
    func add(_ reporter: ProgressReporter?, for caller: UInt64) {
        guard let reporter else { return }
        reporters.withLock { $0[caller] = reporter }
    }

    /// Stops reporting to `caller`.
    func remove(_ caller: UInt64) {
        _ = reporters.withLock { $0.removeValue(forKey: caller) }
    }

    func report(_ progress: TransferProgress) {
        for reporter in reporters.withLock({ Array($0.values) }) {
            reporter.report(progress)
        }
    }

    func flush() async {
        for reporter in reporters.withLock({ Array($0.values) }) {
            await reporter.flush()
        }
    }
}
