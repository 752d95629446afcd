/// What interceptors remember about one request across its attempts: created by the provider
/// for each request, handed to every `adapt` and `retry` of it through ``RequestContext``, and
/// released with the request. A value stored for a request that succeeds needs no clean-up.
final class RequestStorage: Sendable {
    private let values = Locked<[ObjectIdentifier: any Sendable]>([:])
    /// The reason an interceptor gave for the retry it is asking for, until the provider takes it.
    private let retryReason = Locked<RetryReason?>(nil)

    /// Marks the retry being decided with `reason`.
    func markRetry(_ reason: RetryReason) {
        retryReason.withLock { $0 = reason }
    }

    /// The reason marked for the retry just decided, once.
    func takeRetryReason() -> RetryReason? {
        retryReason.withLock { $0.take() }
    }

    /// The value `owner` stored for this request, or `nil`.
    func value<Value: Sendable>(for owner: AnyObject, as type: Value.Type = Value.self) -> Value? {
        values.withLock { $0[ObjectIdentifier(owner)] as? Value }
    }

    /// Stores `value` for `owner`, replacing what it stored before.
    func set<Value: Sendable>(_ value: Value, for owner: AnyObject) {
        values.withLock { $0[ObjectIdentifier(owner)] = value }
    }
}
