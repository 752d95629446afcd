import Foundation
import Synchronization

/// A wall clock the test moves by hand: no waiting for a cookie (or a cached answer) to expire.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The clock's time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock `seconds` ahead.
    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as a jar or cache takes it.
    var reading: @Sendable () -> Date { { self.now } }
}
