import Foundation

/// A value that `@Sendable` closures of a test can read and change: what a Moya test kept in a
/// `var` captured by its plugin or its stub closure.
///
/// ```swift
/// struct PathRecorder: PluginType {
///     let seen: TestBox<[String]>
///     func willSend(_ request: PreparedRequest, target: any TargetType) {
///         seen.modify { $0.append(request.request.url?.path ?? "") }
///     }
/// }
/// ```
public final class TestBox<Value: Sendable>: @unchecked Sendable {
    // Safe: `stored` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    /// Creates a box holding `value`.
    /// - Parameter value: The first value.
    public init(_ value: Value) {
        stored = value
    }

    /// The value now.
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, atomically, and returns what `change` returns.
    /// - Parameter change: Changes the value.
    /// - Returns: What `change` returns.
    @discardableResult
    public func modify<Result>(_ change: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try change(&stored) }
    }
}
