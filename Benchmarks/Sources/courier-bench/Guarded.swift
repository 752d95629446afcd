import Foundation

/// A value behind a lock, for the benchmark's shared counters and servers.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, holding `lock`, and
/// the benchmark stores only `Sendable` values in it.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
