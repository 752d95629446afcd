import Foundation

/// Opening a socket again after its connection was lost (``WebSocketReconnection``).
extension WebSocket {
    /// The socket whose ``WebSocketReconnection/onReconnect`` runs on this task: its sends go out
    /// at once instead of waiting for the reconnection they belong to.
    @TaskLocal static var resubscribing: ObjectIdentifier?

    /// The connection to send on: the current one, or, while the socket reconnects, the next one.
    func openConnection() async throws -> any WebSocketConnection {
        let me = ObjectIdentifier(self)
        while true {
            let current = try state.withLock { state -> (any WebSocketConnection)? in
                if let ended = state.ended { throw ended.error }
                return state.reconnecting && Self.resubscribing != me ? nil : state.connection
            }
            if let current { return current }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    guard state.reconnecting, state.ended == nil else { return false }
                    state.waiters.append(waiter)
                    return true
                }
                if !waits { waiter.resume() }
            }
        }
    }

    /// Reconnects after `error` ended `connection`, when the policy says so: `true` once a new
    /// connection is in use; `false` when the socket does not reconnect (or was closed meanwhile);
    /// throws what ends the socket.
    func reconnects(after error: any Error, from connection: any WebSocketConnection) async throws -> Bool {
        let heartbeatMissed = state.withLock { state in
            defer { state.heartbeatMissed = false }
            return state.heartbeatMissed
        }
        let cause = heartbeatMissed ? WebSocketError.heartbeatMissed(seconds: options.heartbeat?.timeout ?? 0) : error
        guard let policy = options.reconnection, Self.isReconnectable(cause) else { return false }
        let began = state.withLock { state -> Bool in
            guard state.ended == nil, !state.reconnecting else { return false }
            state.reconnecting = true
            return true
        }
        guard began else { return state.value.ended == nil }
        await connection.close(code: .goingAway, reason: "")
        var lastError = cause
        var retryAfter: TimeInterval?
        for attempt in 1...max(1, policy.maximumAttempts) {
            guard policy.maximumAttempts > 0 else { break }
            do {
                try await Task.sleep(
                    nanoseconds: UInt64(policy.wait(beforeAttempt: attempt, retryAfter: retryAfter) * 1e9))
            } catch {
                try stop(CourierError.cancelled)
            }
            if state.value.ended != nil { return false }
            do {
                try await use(try await reopen(), attempt: attempt, policy)
                return true
            } catch let failure as CourierError {
                let (retry, asked) = policy.classify(failure)
                guard retry else { try stop(failure) }
                (lastError, retryAfter) = (failure, asked)
            }
        }
        try stop(lastError)
    }

    /// Puts `opening`'s connection in use, runs the policy's hook on it, then lets waiting sends go.
    private func use(_ opening: WebSocketOpening, attempt: Int, _ policy: WebSocketReconnection) async throws {
        let replaced = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            (state.connection, state.response, state.requestID) = (
                opening.connection, opening.response, opening.requestID
            )
            return true
        }
        guard replaced else {
            await opening.connection.close(code: .goingAway, reason: "")
            return
        }
        observer.observe(.reconnected(attempt: attempt), state)
        if let hook = policy.onReconnect {
            do {
                try await Self.$resubscribing.withValue(ObjectIdentifier(self)) { try await hook(self) }
            } catch {
                try stop(error)
            }
        }
        let waiters = state.withLock { state in
            state.reconnecting = false
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the socket reconnects after `error`: a lost connection, a missed heartbeat, or a
    /// close from the server that says "come back".
    static func isReconnectable(_ error: any Error) -> Bool {
        switch error {
        case is TransportFailure: true
        case WebSocketError.heartbeatMissed: true
        case WebSocketError.closed(let code, _): WebSocketReconnection.reconnectingCodes.contains(code.rawValue)
        default: false
        }
    }
}
