import Foundation

/// Waiting that ends early, with `CancellationError`, when the Swift task is cancelled.
package enum Delay {
    /// The longest wait Courier will honour: about 31 years, far beyond any real delay, and small
    /// enough that converting it to nanoseconds cannot overflow.
    package static let maximumSeconds: TimeInterval = 1e9

    /// Sleeps for `seconds`; a negative, zero or NaN value returns at once.
    /// - Throws: `CancellationError` when the task is cancelled during the wait.
    package static func sleep(seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        let clamped = min(seconds, maximumSeconds)
        try await Task.sleep(nanoseconds: UInt64(clamped * 1_000_000_000))
    }
}
