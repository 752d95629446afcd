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

    private let state = NIOLockedValueBox(State())

    /// Queues `message` when the connection takes it now, and then, if no drain is scheduled
    /// yet, calls `schedulingDrain` (under the lock, so that the loop sees the drain before
    /// anything the caller does next).
    /// - Returns: Whether the message was queued; if not, the caller sends it on the slow path.
    func enqueue(_ message: WebSocketMessage, schedulingDrain: () -> Void) -> Bool {
        state.withLockedValue { state in
            guard state.open, state.writable, state.bytes + message.size <= Self.limit else { return false }
            state.messages.append(message)
            state.bytes += message.size
            if !state.scheduled {
                state.scheduled = true
                schedulingDrain()
            }
            return true
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
