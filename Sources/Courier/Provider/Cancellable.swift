/// A request started with the completion API, which can be cancelled.
public protocol Cancellable: Sendable {
    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { get }
    /// Cancels the request. Its completion is still called, once, with ``CourierError/cancelled``
    /// (unless it had already finished). Calling it again does nothing.
    func cancel()
}

/// The ``Cancellable`` of a request running in a Swift task.
struct CancellableTask: Cancellable {
    let task: Task<Void, Never>

    var isCancelled: Bool { task.isCancelled }

    func cancel() {
        task.cancel()
    }
}
