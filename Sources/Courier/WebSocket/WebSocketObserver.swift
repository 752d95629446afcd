/// Tells a socket's plugins what it does (``PluginType/didObserve(_:target:)-(WebSocketActivity,_)``).
struct WebSocketObserver: Sendable {
    let plugins: [any PluginType]
    let target: any TargetType

    /// Calls every plugin, in order, with `kind`, under the request identifier of the socket's
    /// current connection.
    func observe(_ kind: WebSocketActivity.Kind, _ state: Locked<SocketState>) {
        guard !plugins.isEmpty else { return }
        let activity = WebSocketActivity(kind, requestID: state.withLock({ $0.requestID }))
        for index in plugins.indices {
            plugins[index].didObserve(activity, target: target)
        }
    }
}
