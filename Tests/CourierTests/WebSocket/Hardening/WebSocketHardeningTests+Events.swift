import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The hostile review's probes of issue 58 that waited with sleeps, rewritten to wait on the
// socket's own state (with a deadline) instead. A back-off of an hour stands for "forever": a
// test that would wait it out fails by its time limit instead.

/// Socket probes that wait on events.
@Suite("WebSocket hardening: waits on events", .timeLimit(.minutes(1)))
struct WebSocketHardeningEventTests {
    static let forever: TimeInterval = 3_600

    /// Waits until `condition` holds, polled every millisecond, at most 10 s.
    static func until(_ condition: @Sendable () -> Bool) async -> Bool {
        await WebSocketSendOrderTests.until(condition)
    }

    /// A socket on `script` whose connection was just lost, its reader in the back-off of an hour.
    static func waitingForReconnection(
        _ provider: Provider<SocketTarget>, sendBufferLimit: Int = 64
    ) async throws -> (WebSocket, Task<Result<WebSocketMessage?, any Error>, Never>) {
        var options = WebSocketHardeningTests.reconnecting(delay: forever)
        options.sendBufferLimit = sendBufferLimit
        let socket = try await provider.webSocket(
            SocketTarget(script: WebSocketHardeningTests.dying), options: options)
        var first = socket.messages.makeAsyncIterator()
        _ = try await first.next()
        try await socket.send(.text("die"))
        let reader = Task { () -> Result<WebSocketMessage?, any Error> in
            var messages = socket.messages.makeAsyncIterator()
            do { return .success(try await messages.next()) } catch { return .failure(error) }
        }
        #expect(await until { socket.state.withLock { $0.backOff != nil } })
        return (socket, reader)
    }

    @Test("a socket whose reader was cancelled closes its connection when released")
    func cancelledReaderReleased() async throws {
        let engine = ReviewSpyEngine(script: .echo)
        do {
            let socket = try await Provider<SocketTarget>(transport: engine).webSocket(SocketTarget())
            let reader = Task { for try await _ in socket.messages {} }
            reader.cancel()
            _ = await reader.result
            try await socket.send(.text("after"))
        }
        #expect(await Self.until { !engine.closes.value.isEmpty })
    }

    @Test("onReconnect throws: the new connection it was given is closed")
    func failingHookClosesNewConnection() async throws {
        struct HookFailed: Error {}
        let engine = ReviewSpyEngine(script: WebSocketHardeningTests.dying)
        var options = WebSocketHardeningTests.reconnecting(delay: 0.01)
        options.reconnection?.onReconnect = { _ in throw HookFailed() }
        let socket = try await Provider<SocketTarget>(transport: engine).webSocket(SocketTarget(), options: options)
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        try await socket.send(.text("die"))
        await #expect(throws: HookFailed.self) { try await messages.next() }
        #expect(engine.handshakes.value == 2)
        #expect(await Self.until { engine.closes.value.contains(2) })
    }

    @Test("close() during a reconnection's back-off ends the messages at once, without an error")
    func closeDuringBackOff() async throws {
        let (socket, reader) = try await Self.waitingForReconnection(
            Provider<SocketTarget>(stubClosure: Provider.immediatelyStub))
        await socket.close()
        let result = await reader.value
        guard case .success(nil) = result else {
            Issue.record("the messages gave \(result), not their end")
            return
        }
    }

    @Test("a send waiting for a reconnection returns CancellationError when its task is cancelled")
    func cancelledWaitingSend() async throws {
        let (socket, reader) = try await Self.waitingForReconnection(
            Provider<SocketTarget>(stubClosure: Provider.immediatelyStub))
        let sender = Task { try await socket.send(.text("cancelled before it went")) }
        #expect(await Self.until { socket.state.withLock { $0.waiters.count } == 1 })
        sender.cancel()
        await #expect(throws: CancellationError.self) { try await sender.value }
        #expect(socket.state.withLock { $0.waiters.isEmpty && $0.pendingSends == 0 })
        await socket.close()
        _ = await reader.value
    }

    @Test("a server that accepts then drops at once: maximumAttempts (2) bounds the reconnections")
    func acceptThenDrop() async throws {
        let engine = ReviewSpyEngine(script: WebSocketScript(onOpen: [.drop]))
        let socket = try await Provider<SocketTarget>(transport: engine)
            .webSocket(SocketTarget(), options: WebSocketHardeningTests.reconnecting(delay: 0.01, attempts: 2))
        await #expect(throws: (any Error).self) { for try await _ in socket.messages {} }
        #expect(engine.handshakes.value <= 3)
    }

    @Test("pings while the socket reconnects count against sendBufferLimit: one waits, the rest fail")
    func pingsBounded() async throws {
        let (socket, reader) = try await Self.waitingForReconnection(
            Provider<SocketTarget>(stubClosure: Provider.immediatelyStub), sendBufferLimit: 1)
        let refused = Locked(0)
        let pings = (0..<50).map { _ in
            Task {
                do { try await socket.ping() } catch WebSocketError.sendBufferFull { refused.withLock { $0 += 1 } }
            }
        }
        #expect(await Self.until { refused.value == 49 })
        await socket.close()
        for ping in pings { _ = await ping.result }
        _ = await reader.value
        #expect(refused.value == 49)
    }
}
