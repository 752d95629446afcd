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
    /// ping or a close reads on while they wait). One reader at a time.
    private let received = NIOLockedValueBox(CircularBuffer<Result<WebSocketEvent, any Error>>())

    init(
        channel: any Channel, handler: NIOLoopBound<SocketFrameHandler>, sends: SocketSendQueue,
        closeTimeout: TimeInterval
    ) {
        self.channel = channel
        self.handler = handler
        self.sends = sends
        self.closeTimeout = .nanoseconds(Int64(max(0, closeTimeout) * 1e9))
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
        if let event = received.withLockedValue({ $0.popFirst() }) { return try event.get() }
        var events = try await onLoop(of: SocketEvents.self) { handler, promise in handler.receive(promise) }.events
        let first = events.removeFirst()
        if !events.isEmpty { received.withLockedValue { $0.append(contentsOf: events) } }
        return try first.get()
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

/// The events one receive took from the handler, in order; never empty.
struct SocketEvents: Sendable {
    var events: CircularBuffer<Result<WebSocketEvent, any Error>>

    init(_ events: CircularBuffer<Result<WebSocketEvent, any Error>>) {
        self.events = events
    }

    init(_ event: Result<WebSocketEvent, any Error>) {
        events = [event]
    }
}
