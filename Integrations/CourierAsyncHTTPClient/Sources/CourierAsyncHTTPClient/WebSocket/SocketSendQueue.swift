import Courier
import NIOConcurrencyHelpers
import NIOCore

/// Messages handed to a socket's event loop and not yet written, shared by the senders (any task)
/// and the ``SocketFrameHandler`` (the loop), so that a send returns without waiting for its
/// write, and one hop to the loop writes every message queued meanwhile with one flush.
///
/// A send is queued only while the connection is writable and the queue holds less than
/// ``limit`` bytes; otherwise it takes the slow path, which waits for its own write. Memory is
/// therefore bounded by the limit, the channel's write buffer (its high-water mark) and the
/// sends waiting on the slow path. Once the handler ends or begins closing, nothing more is
/// queued, so that the slow path reports the reason.
final class SocketSendQueue: Sendable {
    /// The most bytes queued and not yet handed to the channel.
    static let limit = 1 << 20

    private struct State {
        var messages: [WebSocketMessage] = []
        var bytes = 0
        var scheduled = false
        var open = true
        var writable = true
    }

    /// What ``enqueue(_:)`` did.
    enum Enqueued {
        /// Queued, and a drain must be scheduled on the loop.
        case first
        /// Queued behind others: the drain already scheduled writes it too.
        case behind
        /// Not queued: the caller sends it on the slow path.
        case refused
    }

    private let state = NIOLockedValueBox(State())

    /// Queues `message` when the connection takes it now.
    func enqueue(_ message: WebSocketMessage) -> Enqueued {
        state.withLockedValue { state in
            guard state.open, state.writable, state.bytes + message.size <= Self.limit else { return .refused }
            state.messages.append(message)
            state.bytes += message.size
            if state.scheduled { return .behind }
            state.scheduled = true
            return .first
        }
    }

    /// Takes every queued message, in order (on the loop, by the drain).
    func take() -> [WebSocketMessage] {
        state.withLockedValue { state in
            defer {
                state.messages.removeAll(keepingCapacity: true)
                state.bytes = 0
                state.scheduled = false
            }
            return state.messages
        }
    }

    /// Records whether the channel takes writes now.
    func setWritable(_ writable: Bool) {
        state.withLockedValue { $0.writable = writable }
    }

    /// Queues nothing more: the socket ended or is closing.
    func shut() {
        state.withLockedValue { $0.open = false }
    }
}
