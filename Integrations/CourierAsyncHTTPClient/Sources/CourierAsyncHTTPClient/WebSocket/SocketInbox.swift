import Courier
import NIOConcurrencyHelpers
import NIOCore

/// The events read for a socket's readers: its ``SocketFrameHandler`` appends them on the event
/// loop, in the order their frames arrived; a reader takes them one at a time, inflating a
/// compressed message as it takes it (``SocketInflater``). Taking and inflating are one critical
/// section, so messages are inflated in the order they arrived whatever the readers do (two at
/// once, one cancelled after its hop), and each reader gets whole messages in that order.
///
/// Holds a read's worth of events or two (a ping or a close reads on while they wait), compressed
/// messages still compressed: memory is a few reads and one message inflated.
final class SocketInbox: Sendable {
    private struct State: Sendable {
        var events = CircularBuffer<SocketEvent>()
        /// Why the socket failed on a reader's side (a message that did not inflate): every later
        /// take gets it, and nothing read after it is delivered.
        var failure: WebSocketError?
        /// Used only under the lock (its `@unchecked Sendable` invariant).
        let inflater: SocketInflater?
    }

    private let state: NIOLockedValueBox<State>

    /// An inbox that inflates compressed messages with `inflater` (a socket that agreed
    /// permessage-deflate), or refuses them.
    init(inflater: SocketInflater?) {
        state = NIOLockedValueBox(State(inflater: inflater))
    }

    /// How many compressed messages were inflated so far (for tests).
    var inflatedMessages: Int {
        state.withLockedValue { $0.inflater?.inflated ?? 0 }
    }

    /// Appends `events`, in order (on the event loop).
    func append(_ events: CircularBuffer<SocketEvent>) {
        state.withLockedValue { state in
            if state.failure == nil { state.events.append(contentsOf: events) }
        }
    }

    /// Appends `event` (on the event loop).
    func append(_ event: SocketEvent) {
        state.withLockedValue { state in
            if state.failure == nil { state.events.append(event) }
        }
    }

    /// The first event, inflated if it is a compressed message; `nil` when none waits. A message
    /// that does not inflate (or inflates past the limit) is returned as its failure once, after
    /// `failing` is called with it (under the lock: the caller hands it to the event loop), and
    /// is every later take's answer.
    func take(failing: (WebSocketError) -> Void) -> Result<WebSocketEvent, any Error>? {
        state.withLockedValue { state -> Result<WebSocketEvent, any Error>? in
            if let failure = state.failure { return .failure(failure) }
            switch state.events.popFirst() {
            case nil: return nil
            case .ready(let result)?: return result
            case .compressed(let payload, let isText)?:
                do throws(WebSocketError) {
                    guard let inflater = state.inflater else {
                        throw .protocolViolation("a compressed message without an agreement")
                    }
                    return .success(.message(try inflater.message(payload, isText: isText)))
                } catch {
                    state.failure = error
                    state.events.removeAll()
                    failing(error)
                    return .failure(error)
                }
            }
        }
    }
}
