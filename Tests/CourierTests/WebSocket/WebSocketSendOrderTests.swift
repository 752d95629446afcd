import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends that wait for a reconnection go out in the order they came, each once.
@Suite("WebSocket send order across a reconnection")
struct WebSocketSendOrderTests {
    /// Holds the second handshake (the reconnection's) in `prepare` until `gate` finishes.
    struct HeldReconnection: PluginType {
        let handshakes: Locked<Int>
        let gate: AsyncStream<Void>

        func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
            let number = handshakes.withLock { count in
                count += 1
                return count
            }
            if number == 2 { for await _ in gate {} }
            return request
        }
    }

    /// Reads `count` messages of `socket` in a task of its own.
    static func reader(_ socket: WebSocket, count: Int) -> Task<[WebSocketMessage], any Error> {
        Task {
            var received: [WebSocketMessage] = []
            for try await message in socket.messages {
                received.append(message)
                if received.count == count { break }
            }
            return received
        }
    }

    /// Waits until `condition` holds, polled every millisecond, at most 10 s.
    static func until(_ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }

    @Test("twenty sends made one after another while the socket reconnects arrive in that order, after the hook's")
    func inOrder() async throws {
        let (gate, release) = AsyncStream<Void>.makeStream()
        let provider = Provider<SocketTarget>(
            stubClosure: { _ in .immediate }, plugins: [HeldReconnection(handshakes: Locked(0), gate: gate)])
        let options = WebSocketReconnectionTests.options { socket in try await socket.send(.text("resubscribe")) }
        let socket = try await provider.webSocket(
            SocketTarget(script: WebSocketReconnectionTests.peer(tokens: Locked([]))), options: options)
        let reader = Self.reader(socket, count: 23)
        try await socket.send(.text("die"))
        #expect(await Self.until { socket.state.withLock { $0.reconnecting } })
        var senders: [Task<Void, any Error>] = []
        for index in 0..<20 {
            senders.append(Task { try await socket.send(.text("m\(index)")) })
            #expect(await Self.until { socket.state.withLock { $0.waiters.count } == index + 1 })
        }
        release.finish()
        for sender in senders { try await sender.value }
        let received = try await reader.value
        let expected: [WebSocketMessage] =
            [.text("hello"), .text("hello"), .text("resubscribe")] + (0..<20).map { .text("m\($0)") }
        #expect(received == expected)
        await socket.close()
    }

    @Test("sends made while the waiting ones are let go wait behind them")
    func latecomerWaits() async throws {
        let (gate, release) = AsyncStream<Void>.makeStream()
        let provider = Provider<SocketTarget>(
            stubClosure: { _ in .immediate }, plugins: [HeldReconnection(handshakes: Locked(0), gate: gate)])
        let socket = try await provider.webSocket(
            SocketTarget(script: WebSocketReconnectionTests.peer(tokens: Locked([]))),
            options: WebSocketReconnectionTests.options())
        let reader = Self.reader(socket, count: 82)
        try await socket.send(.text("die"))
        #expect(await Self.until { socket.state.withLock { $0.reconnecting } })
        var senders: [Task<Void, any Error>] = []
        for index in 0..<40 {
            senders.append(Task { try await socket.send(.text("w\(index)")) })
            #expect(await Self.until { socket.state.withLock { $0.waiters.count } == index + 1 })
        }
        release.finish()
        // Sent one after another by one task while the forty waiting ones are let go (the send
        // buffer holds 64).
        for index in 0..<40 { try await socket.send(.text("l\(index)")) }
        for sender in senders { try await sender.value }
        let received = try await reader.value
        let waited = (0..<40).map { WebSocketMessage.text("w\($0)") }
        let late = (0..<40).map { WebSocketMessage.text("l\($0)") }
        #expect(Array(received.prefix(2)) == [.text("hello"), .text("hello")])
        #expect(received.filter { waited.contains($0) } == waited)
        #expect(received.filter { late.contains($0) } == late)
        #expect(received.count == 82)
        // No late send overtook a waiting one.
        if let lastWaited = received.lastIndex(of: waited[39]), let firstLate = received.firstIndex(of: late[0]) {
            #expect(lastWaited < firstLate)
        }
        await socket.close()
    }
}
