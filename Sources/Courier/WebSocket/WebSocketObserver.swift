/// Tells a socket's plugins what it does (``PluginType/didObserve(_:target:)``).
struct WebSocketObserver: Sendable {
    let plugins: [any PluginType]
    let target: any TargetType
    let requestID: RequestID

    /// Calls every plugin, in order, with `kind`.
    func observe(_ kind: WebSocketActivity.Kind) {
        guard !plugins.isEmpty else { return }
        let activity = WebSocketActivity(kind, requestID: requestID)
        for index in plugins.indices {
            plugins[index].didObserve(activity, target: target)
        }
    }
}
