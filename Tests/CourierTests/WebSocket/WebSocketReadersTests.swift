import Courier
import CourierTesting
import Foundation
import Testing

/// Readers of one socket take turns: two loops over `messages` share them, in order.
@Suite("WebSocket readers", .timeLimit(.minutes(1)))
struct WebSocketReadersTests {
    @Test("two loops over messages at once: each message reaches one of them, in order, and both end")
    func twoLoops() async throws {
        let sent = (0..<200).map { WebSocketMessage.text("message \($0)") }
        let script = WebSocketScript(onOpen: sent.map { .send($0) } + [.close(.normalClosure, reason: "done")])
        let socket = try await Provider<SocketTarget>(transport: ScriptedSocketEngine(script: script))
            .webSocket(SocketTarget())
        let loops = (0..<2).map { _ in
            Task {
                var received: [Int] = []
                for try await message in socket.messages {
                    if case .text(let text) = message, let index = Int(text.dropFirst(8)) { received.append(index) }
                }
                return received
            }
        }
        let first = try await loops[0].value
        let second = try await loops[1].value
        #expect((first + second).sorted() == Array(0..<200))
        #expect(first == first.sorted())
        #expect(second == second.sorted())
    }

    @Test("of two waiting readers, one cancelled gets CancellationError and the other reads on")
    func cancelledReader() async throws {
        let script = WebSocketScript(reply: { [.send($0)] })
        let socket = try await Provider<SocketTarget>(transport: ScriptedSocketEngine(script: script))
            .webSocket(SocketTarget())
        // Whichever holds the turn, the cancelled one ends and the other gets the message.
        let staying = Task {
            var iterator = socket.messages.makeAsyncIterator()
            return try await iterator.next()
        }
        let leaving = Task {
            var iterator = socket.messages.makeAsyncIterator()
            return try await iterator.next()
        }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        try await socket.send(.text("echo"))
        #expect(try await staying.value == .text("echo"))
        await socket.close()
    }
}
