import Courier
import Foundation
import NIOCore
import NIOWebSocket

/// An open socket on a SwiftNIO channel: each call hops to the channel's event loop, where its
/// ``SocketFrameHandler`` keeps the state.
final class NIOWebSocketConnection: WebSocketConnection {
    private let channel: any Channel
    private let handler: NIOLoopBound<SocketFrameHandler>
    private let closeTimeout: TimeAmount

    init(channel: any Channel, handler: NIOLoopBound<SocketFrameHandler>, closeTimeout: TimeInterval) {
        self.channel = channel
        self.handler = handler
        self.closeTimeout = .nanoseconds(Int64(max(0, closeTimeout) * 1e9))
    }

    deinit {
        channel.close(promise: nil)
    }

    func send(_ message: WebSocketMessage) async throws {
        try await onLoop(of: Void.self) { handler, promise in handler.send(message, promise) }
    }

    func receive() async throws -> WebSocketEvent {
        try await onLoop(of: WebSocketEvent.self) { handler, promise in handler.receive(promise) }
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

    /// Runs `body` with the handler on the event loop and awaits the promise it completes; a
    /// cancelled caller stops waiting (the socket stays as it is, as a cancelled `read` leaves a file).
    private func onLoop<Value: Sendable>(
        of type: Value.Type, _ body: @escaping @Sendable (SocketFrameHandler, EventLoopPromise<Value>) -> Void
    ) async throws -> Value {
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: Value.self)
        let handler = handler
        return try await withTaskCancellationHandler {
            loop.execute { body(handler.value, promise) }
            return try await promise.futureResult.get()
        } onCancel: {
            // The handler lets go of the waiter, failing it once (never twice).
            loop.execute { handler.value.abandon(promise.futureResult) }
        }
    }
}
