import Foundation

/// A value guarded by a lock: the one way Courier shares mutable state between threads.
///
/// `Synchronization.Mutex` would do the same, but it needs macOS 15 / iOS 18, and Courier
/// supports every Apple release that has async/await; the lock is the system's own
/// (``PlatformMutex``), lighter than `NSLock`.
///
/// It is `Sendable` only when its value is: a lock makes access exclusive, but a value that is
/// not `Sendable` (a class with shared state, say) could still be handed out of `withLock` and
/// used on two threads at once.
package final class Locked<Value> {
    private let lock = PlatformMutex()
    /// Exclusive by the lock, so the runtime's exclusivity check of each access would only cost
    /// (two calls per `withLock`, measured with callgrind).
    @exclusivity(unchecked) private var storage: Value

    /// Creates the box with its first value.
    package init(_ value: Value) {
        self.storage = value
    }

    deinit {
        lock.destroy()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

// Safe because `storage` is only ever read or written inside `lock`, no reference to it escapes
// `withLock` (callers get copies or work inside the closure), and what they get is `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}

extension Locked where Value: Sendable {
    /// A copy of the current value.
    package var value: Value {
        withLock { $0 }
    }
}
