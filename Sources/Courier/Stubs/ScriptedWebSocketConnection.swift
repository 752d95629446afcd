import Foundation

/// The connection of a stubbed socket: a ``WebSocketScript``'s peer, in memory.
final class ScriptedWebSocketConnection: WebSocketConnection {
    private let script: WebSocketScript
    private let state = Locked(PeerState())

    init(script: WebSocketScript) {
        self.script = script
        perform(script.onOpen)
    }

    func send(_ message: WebSocketMessage) async throws {
        if let closed = state.value.closed { throw WebSocketError.closed(closed.code, reason: closed.reason) }
        perform(script.reply(message))
    }

    func receive() async throws -> WebSocketEvent {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<WebSocketEvent, any Error>? in
                    guard state.events.isEmpty else { return state.events.removeFirst() }
                    // Cancelled before it waited: the cancellation handler ran already.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiter = (id, continuation)
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { if state.waiter?.id == id { state.waiter = nil } }
                return state.waiter?.id == id ? state.waiter?.continuation : nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    func ping() async throws {
        if let closed = state.value.closed { throw WebSocketError.closed(closed.code, reason: closed.reason) }
        // A silent peer: no pong, ever; the caller's time limit cancels the wait.
        if !script.answersPings { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let first = state.withLock { state -> Bool in
            guard state.closed == nil else { return false }
            state.closed = (code, reason)
            return true
        }
        // The peer answers a client's close with its own.
        if first { deliver(.success(.closed(code, reason: reason))) }
    }

    /// Carries out the peer's actions, in order.
    private func perform(_ actions: [WebSocketScript.Action]) {
        for action in actions {
            switch action {
            case .send(let message): deliver(.success(.message(message)))
            case .close(let code, let reason):
                state.withLock { if $0.closed == nil { $0.closed = (code, reason) } }
                deliver(.success(.closed(code, reason: reason)))
            case .drop:
                state.withLock { if $0.closed == nil { $0.closed = (.abnormalClosure, "") } }
                deliver(
                    .failure(TransportFailure(kind: .connectionLost, underlyingError: URLError(.networkConnectionLost)))
                )
            }
        }
    }

    /// Hands `event` to the waiting reader, or queues it.
    private func deliver(_ event: Result<WebSocketEvent, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<WebSocketEvent, any Error>? in
            guard let waiter = state.waiter else {
                state.events.append(event)
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(with: event)
    }
}

/// What the scripted peer's lock guards.
// @unchecked Sendable: only ever inside the connection's lock; a queued error is the stub's own
// `TransportFailure` or `CancellationError`, handed to the one reader.
private struct PeerState: @unchecked Sendable {
    var events: [Result<WebSocketEvent, any Error>] = []
    var waiter: (id: UUID, continuation: CheckedContinuation<WebSocketEvent, any Error>)?
    var closed: (code: WebSocketCloseCode, reason: String)?
}
