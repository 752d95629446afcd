/// The authentication interceptors whose refresh the current task is running: a request sent by a
/// refresh (through the same provider, say) is neither signed by that interceptor nor made to
/// wait for that refresh, which would wait for it in turn.
enum RefreshScope {
    @TaskLocal static var refreshing: [ObjectIdentifier] = []

    /// Whether the current task runs a refresh of `interceptor`.
    static func isRefreshing(_ interceptor: AnyObject) -> Bool {
        let active = refreshing
        return !active.isEmpty && active.contains(ObjectIdentifier(interceptor))
    }

    /// Runs `operation` as a refresh of `interceptor`.
    static func run<Value: Sendable>(
        as interceptor: AnyObject, _ operation: () async throws -> Value
    ) async throws -> Value {
        try await $refreshing.withValue(refreshing + [ObjectIdentifier(interceptor)], operation: operation)
    }
}
