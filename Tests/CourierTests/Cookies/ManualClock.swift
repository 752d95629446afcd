import Courier
import Foundation
import Synchronization

/// A wall clock the test moves by hand: no waiting for a cookie (or a cached answer) to expire.
final class ManualClock: ProviderClock {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The clock's time.
    var time: Date { current.withLock { $0 } }

    /// Moves the clock `seconds` ahead.
    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Seconds since the reference date, on the clock's time.
    func now() -> TimeInterval { time.timeIntervalSinceReferenceDate }

    /// The clock's time.
    func date() -> Date { time }

    /// Moves the clock `seconds` ahead instead of waiting.
    func sleep(seconds: TimeInterval) async throws {
        if seconds > 0 { advance(seconds) }
    }
}
