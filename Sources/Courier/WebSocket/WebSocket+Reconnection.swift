import Foundation

/// Opening a socket again after its connection was lost (``WebSocketReconnection``).
extension WebSocket {
    /// The socket whose ``WebSocketReconnection/onReconnect`` runs on this task: its sends go out
    /// at once instead of waiting for the reconnection they belong to.
    @TaskLocal static var resubscribing: ObjectIdentifier?

    /// The connection to send on: the current one, or, while the socket reconnects, the next one.
    /// Sends that waited for a reconnection go out in the order they came, one at a time: the
    /// returned `turn` is `true` for a caller let go in its turn, which calls ``passTurn()`` once
    /// its send was handed to the connection. A caller cancelled while it waits gets
    /// `CancellationError`, and nothing is sent.
    func openConnection() async throws -> (connection: any WebSocketConnection, turn: Bool) {
        let me = ObjectIdentifier(self)
        var turn = false
        var id: UInt64?
        while true {
            let current: (any WebSocketConnection)?
            do {
                try Task.checkCancellation()
                current = try state.withLock { state -> (any WebSocketConnection)? in
                    if let ended = state.ended { throw ended.error }
                    if Self.resubscribing == me { return state.connection }
                    return state.reconnecting || (state.releasing && !turn) ? nil : state.connection
                }
            } catch {
                if turn { passTurn() }
                throw error
            }
            if let current { return (current, turn) }
            // A later send keeps its place; one let go in its turn whose connection went again
            // waits once more in its old place.
            let place =
                id
                ?? state.withLock { state in
                    state.nextWaiter += 1
                    return state.nextWaiter
                }
            id = place
            turn = await withTaskCancellationHandler {
                await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
                    let waits = state.withLock { state -> Bool in
                        guard state.reconnecting || state.releasing, state.ended == nil, !Task.isCancelled
                        else { return false }
                        state.waiters[place] = waiter
                        return true
                    }
                    if !waits { waiter.resume(returning: false) }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: place) }?.resume(returning: false)
            }
        }
    }

    /// Lets the next waiting send go, in order; ends the release when none is left. While the
    /// socket reconnects again, the reconnection lets them go once it is done.
    func passTurn() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.reconnecting else { return nil }
            guard let first = state.waiters.keys.min() else {
                state.releasing = false
                return nil
            }
            return state.waiters.removeValue(forKey: first)
        }
        next?.resume(returning: true)
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
        guard var attempt = began else { return state.withLock({ $0.ended }) == nil }
        await connection.close(code: .goingAway, reason: "")
        var lastError = cause
        var retryAfter: TimeInterval?
        while attempt < policy.maximumAttempts {
            attempt += 1
            await backOff(policy.wait(beforeAttempt: attempt, retryAfter: retryAfter))
            if Task.isCancelled { try await stop(CourierError.cancelled) }
            if state.withLock({ $0.ended }) != nil { return false }
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
        state.withLock { state in
            state.reconnecting = false
            state.releasing = true
        }
        passTurn()
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
