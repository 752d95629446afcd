import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOWebSocket

/// An open socket on a SwiftNIO channel: each call hops to the channel's event loop, where its
/// ``SocketFrameHandler`` keeps the state, except a receive of an event already taken.
final class NIOWebSocketConnection: WebSocketConnection {
    private let channel: any Channel
    private let handler: NIOLoopBound<SocketFrameHandler>
    private let sends: SocketSendQueue
    private let closeTimeout: TimeAmount
    /// Events taken from the handler in one hop and not yet returned: a read's worth or two (a
    /// ping or a close reads on while they wait), compressed messages still compressed. One
    /// reader at a time; the inflater is used only under this lock (its invariant).
    private let received: NIOLockedValueBox<Received>

    private struct Received: Sendable {
        var events = CircularBuffer<SocketEvent>()
        let inflater: SocketInflater?
    }

    init(
        channel: any Channel, handler: NIOLoopBound<SocketFrameHandler>, sends: SocketSendQueue,
        closeTimeout: TimeInterval, inflater: SocketInflater? = nil
    ) {
        self.channel = channel
        self.handler = handler
        self.sends = sends
        self.closeTimeout = .nanoseconds(Int64(max(0, closeTimeout) * 1e9))
        received = NIOLockedValueBox(Received(inflater: inflater))
    }

    /// How many compressed messages were inflated so far (for tests).
    var inflatedMessages: Int {
        received.withLockedValue { $0.inflater?.inflated ?? 0 }
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Queues `message` and returns while the connection takes writes (``SocketSendQueue``);
    /// otherwise waits for its write, which also reports a closed or lost socket.
    func send(_ message: WebSocketMessage) async throws {
        let (handler, loop) = (handler, channel.eventLoop)
        // The drain is scheduled under the queue's lock, so that a later send on the slow path,
        // a ping or a close reaches the loop after it: one task's calls keep their order.
        guard sends.enqueue(message, schedulingDrain: { loop.execute { handler.value.drain() } }) else {
            try await onLoop(of: Void.self) { handler, promise in handler.send(message, promise) }
            return
        }
    }

    func receive() async throws -> WebSocketEvent {
        if let event = try next(adding: []) { return event }
        let events = try await onLoop(of: SocketEvents.self) { handler, promise in handler.receive(promise) }.events
        // The handler completes a receive with at least one event.
        guard let event = try next(adding: events) else {
            throw TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof)
        }
        return event
    }

    /// Appends `events` to those waiting and returns the first, inflated if it is compressed;
    /// `nil` when none waits. Taking and inflating happen in one critical section, so messages
    /// are inflated in order and one at a time. A message that fails to inflate fails the socket
    /// (the handler closes it with the code the error calls for) and drops what was read after it.
    private func next(adding events: CircularBuffer<SocketEvent>) throws -> WebSocketEvent? {
        let taken = received.withLockedValue { received -> Result<WebSocketEvent, any Error>? in
            received.events.append(contentsOf: events)
            switch received.events.popFirst() {
            case nil: return nil
            case .ready(let result)?: return result
            case .compressed(let payload, let isText)?:
                do throws(WebSocketError) {
                    guard let inflater = received.inflater else {
                        throw .protocolViolation("a compressed message without an agreement")
                    }
                    return .success(.message(try inflater.message(payload, isText: isText)))
                } catch {
                    received.events.removeAll()
                    let handler = handler
                    channel.eventLoop.execute { handler.value.failFromReader(error) }
                    return .failure(error)
                }
            }
        }
        return try taken?.get()
    }

    func ping() async throws {
        try await onLoop(of: Void.self) { handler, promise in handler.ping(promise) }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let timeout = closeTimeout
        _ = try? await onLoop(of: Void.self) { handler, promise in
            handler.close(code: code, reason: reason, timeout: timeout, promise)
        }
    }

    func abort() async {
        let handler = handler
        try? await channel.eventLoop.submit { handler.value.abort() }.get()
    }

    /// Runs `body` with the handler on the event loop and awaits the promise it completes; a
    /// cancelled caller stops waiting (the socket stays as it is, as a cancelled `read` leaves a
    /// file), also one cancelled before `body` ran. A failure is the transport's error, typed.
    private func onLoop<Value: Sendable>(
        of type: Value.Type, _ body: @escaping @Sendable (SocketFrameHandler, EventLoopPromise<Value>) -> Void
    ) async throws -> Value {
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: Value.self)
        let handler = handler
        let cancelled = NIOLockedValueBox(false)
        do {
            return try await withTaskCancellationHandler {
                loop.execute {
                    if cancelled.withLockedValue({ $0 }) { return promise.fail(CancellationError()) }
                    body(handler.value, promise)
                }
                return try await promise.futureResult.get()
            } onCancel: {
                cancelled.withLockedValue { $0 = true }
                // The handler lets go of the waiter, failing it once (never twice).
                loop.execute { handler.value.abandon(promise.futureResult) }
            }
        } catch let error as WebSocketError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw AsyncHTTPClientFailure.map(error)
        }
    }
}
