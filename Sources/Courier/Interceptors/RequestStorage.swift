/// What interceptors remember about one request across its attempts: created by the provider
/// for each request, handed to every `adapt` and `retry` of it through ``RequestContext``, and
/// released with the request. A value stored for a request that succeeds needs no clean-up.
final class RequestStorage: Sendable {
    private struct State {
        /// What each interceptor stored, by its identity.
        var values: [ObjectIdentifier: any Sendable] = [:]
        /// The reason an interceptor gave for the retry it is asking for, until the provider
        /// takes it.
        var marked: RetryReason?
        /// The reason of the last retry made, for the attempt it started.
        var last: RetryReason?
    }

    /// One lock for all of it: a storage is made per request, and each lock is an allocation.
    private let state = Locked(State())

    /// Marks the retry being decided with `reason`.
    func markRetry(_ reason: RetryReason) {
        state.withLock { $0.marked = reason }
    }

    /// The reason of the retry just decided: the one marked, or ``RetryReason/failure``. Kept as
    /// ``lastRetryReason`` for the attempt it starts.
    func takeRetryReason() -> RetryReason {
        state.withLock { state in
            let reason = state.marked ?? .failure
            state.marked = nil
            state.last = reason
            return reason
        }
    }

    /// Why the latest attempt was made: the reason of the retry that started it.
    var lastRetryReason: RetryReason? {
        state.withLock { $0.last }
    }

    /// The value `owner` stored for this request, or `nil`.
    func value<Value: Sendable>(for owner: AnyObject, as type: Value.Type = Value.self) -> Value? {
        state.withLock { $0.values[ObjectIdentifier(owner)] as? Value }
    }

    /// Stores `value` for `owner`, replacing what it stored before.
    func set<Value: Sendable>(_ value: Value, for owner: AnyObject) {
        state.withLock { $0.values[ObjectIdentifier(owner)] = value }
    }
}
