import Foundation

/// Pings that find a connection lost without a close frame (``WebSocketHeartbeat``).
extension WebSocket {
    /// Pings every `beat.interval`; a pong that does not come within `beat.timeout` makes the
    /// connection lost: the socket reconnects when its policy says so, else stops with
    /// ``WebSocketError/heartbeatMissed(seconds:)``.
    func startHeartbeat(_ beat: WebSocketHeartbeat) {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(max(0, beat.interval) * 1e9))
                guard !Task.isCancelled, let socket = self else { return }
                // While the socket reconnects there is no connection to ping.
                if socket.state.withLock({ $0.reconnecting }) { continue }
                let connection = socket.state.withLock({ $0.connection })
                if await Self.ping(connection, within: beat.timeout) { continue }
                await socket.missedHeartbeat(beat.timeout, connection)
                if socket.options.reconnection == nil { return }
            }
        }
        heartbeat.withLock { $0 = task }
    }

    /// Whether a pong came on `connection` within `timeout` seconds.
    private static func ping(_ connection: any WebSocketConnection, within timeout: TimeInterval) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await connection.ping()) != nil }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1e9))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The heartbeat found `connection` lost: it is closed at once (no close handshake with a
    /// peer that does not answer); the reader then reconnects, or the socket stops.
    private func missedHeartbeat(_ timeout: TimeInterval, _ connection: any WebSocketConnection) async {
        guard options.reconnection != nil else {
            let error = WebSocketError.heartbeatMissed(seconds: timeout)
            guard let connection = end(.failed(error)) else { return }
            observer.observe(.failed(error), state)
            await connection.abort()
            return
        }
        state.withLock { $0.heartbeatMissed = true }
        await connection.abort()
    }
}
