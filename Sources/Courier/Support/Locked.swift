import Foundation

/// A value guarded by a lock: the one way Courier shares mutable state between threads.
///
/// `Synchronization.Mutex` would do the same, but it needs macOS 15 / iOS 18, and Courier
/// supports every Apple release that has async/await.
package final class Locked<Value>: @unchecked Sendable {
    // Safe because `storage` is only ever read or written inside `lock`, and no reference to it
    // escapes `withLock`: callers get copies or work inside the closure.
    private let lock = NSLock()
    private var storage: Value

    /// Creates the box with its first value.
    package init(_ value: Value) {
        self.storage = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the current value.
    package var value: Value {
        withLock { $0 }
    }
}
