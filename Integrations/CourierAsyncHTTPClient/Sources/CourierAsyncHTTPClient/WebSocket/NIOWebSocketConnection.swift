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
    /// The events the handler read, taken (and inflated) by the readers.
    private let inbox: SocketInbox

    init(
        channel: any Channel, handler: NIOLoopBound<SocketFrameHandler>, sends: SocketSendQueue,
        closeTimeout: TimeInterval, inbox: SocketInbox
    ) {
        self.channel = channel
        self.handler = handler
        self.sends = sends
        self.closeTimeout = .nanoseconds(Int64(max(0, closeTimeout) * 1e9))
        self.inbox = inbox
    }

    /// How many compressed messages were inflated so far (for tests).
    var inflatedMessages: Int { inbox.inflatedMessages }

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

    /// The next event the handler read; when none waits, one hop asks the handler to read,
    /// and the events it read go to the inbox, in order, for whichever reader takes them.
    func receive() async throws -> WebSocketEvent {
        let (handler, loop) = (handler, channel.eventLoop)
        while true {
            let taken = inbox.take { error in loop.execute { handler.value.failFromReader(error) } }
            if let taken { return try taken.get() }
            try await onLoop(of: Void.self) { handler, promise in handler.receive(promise) }
        }
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
