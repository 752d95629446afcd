import Foundation

/// Opening a socket again after its connection was lost (``WebSocketReconnection``).
extension WebSocket {
    /// The socket whose ``WebSocketReconnection/onReconnect`` runs on this task: its sends go out
    /// at once instead of waiting for the reconnection they belong to.
    @TaskLocal static var resubscribing: ObjectIdentifier?

    /// The connection to send on: the current one, or, while the socket reconnects, the next one.
    /// A caller cancelled while it waits gets `CancellationError`, and nothing is sent.
    func openConnection() async throws -> any WebSocketConnection {
        let me = ObjectIdentifier(self)
        while true {
            try Task.checkCancellation()
            let current = try state.withLock { state -> (any WebSocketConnection)? in
                if let ended = state.ended { throw ended.error }
                return state.reconnecting && Self.resubscribing != me ? nil : state.connection
            }
            if let current { return current }
            let id = state.withLock { state in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    let waits = state.withLock { state -> Bool in
                        guard state.reconnecting, state.ended == nil, !Task.isCancelled else { return false }
                        state.waiters[id] = waiter
                        return true
                    }
                    if !waits { waiter.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }

    /// Reconnects after `error` ended `connection`, when the policy says so: `true` once a new
    /// connection is in use; `false` when the socket does not reconnect (or was closed meanwhile);
    /// throws what ends the socket. Reconnections count as failures until a message arrives on
    /// the new connection, so a server that accepts and drops at once cannot keep the socket
    /// reconnecting past ``WebSocketReconnection/maximumAttempts``.
    func reconnects(after error: any Error, from connection: any WebSocketConnection) async throws -> Bool {
        let heartbeatMissed = state.withLock { state in
            defer { state.heartbeatMissed = false }
            return state.heartbeatMissed
        }
        let cause = heartbeatMissed ? WebSocketError.heartbeatMissed(seconds: options.heartbeat?.timeout ?? 0) : error
        guard let policy = options.reconnection, Self.isReconnectable(cause) else { return false }
        let began = state.withLock { state -> Int? in
            guard state.ended == nil, !state.reconnecting else { return nil }
            state.reconnecting = true
            return state.reconnectionsInRow
        }
        guard var attempt = began else { return state.value.ended == nil }
        await connection.close(code: .goingAway, reason: "")
        var lastError = cause
        var retryAfter: TimeInterval?
        while attempt < policy.maximumAttempts {
            attempt += 1
            await backOff(policy.wait(beforeAttempt: attempt, retryAfter: retryAfter))
            if Task.isCancelled { try await stop(CourierError.cancelled) }
            if state.value.ended != nil { return false }
            do {
                try await use(try await reopen(), attempt: attempt, policy)
                return true
            } catch let failure as CourierError {
                let (retry, asked) = policy.classify(failure)
                guard retry else { try await stop(failure) }
                (lastError, retryAfter) = (failure, asked)
            }
        }
        try await stop(lastError)
    }

    /// Waits `seconds`, or less when the socket ends (closed meanwhile) or the task is cancelled.
    private func backOff(_ seconds: TimeInterval) async {
        let waker = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
            self?.state.withLock { state in
                defer { state.backOff = nil }
                return state.backOff
            }?.resume()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (wait: CheckedContinuation<Void, Never>) in
                let waits = state.withLock { state -> Bool in
                    guard state.ended == nil, !Task.isCancelled else { return false }
                    state.backOff = wait
                    return true
                }
                if !waits { wait.resume() }
            }
        } onCancel: {
            waker.cancel()
            state.withLock { state in
                defer { state.backOff = nil }
                return state.backOff
            }?.resume()
        }
        waker.cancel()
    }

    /// Puts `opening`'s connection in use, runs the policy's hook on it, then lets waiting sends go.
    private func use(_ opening: WebSocketOpening, attempt: Int, _ policy: WebSocketReconnection) async throws {
        let replaced = state.withLock { state -> Bool in
            guard state.ended == nil else { return false }
            (state.connection, state.response, state.requestID) = (
                opening.connection, opening.response, opening.requestID
            )
            state.reconnectionsInRow = attempt
            // A missed heartbeat belonged to the connection that went.
            state.heartbeatMissed = false
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
                try await stop(error)
            }
        }
        let waiters = state.withLock { state in
            state.reconnecting = false
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
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
