/// `operation`'s result, or `nil` when it takes longer than `seconds` (it is then cancelled).
func within<Value: Sendable>(
    _ seconds: Double, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
