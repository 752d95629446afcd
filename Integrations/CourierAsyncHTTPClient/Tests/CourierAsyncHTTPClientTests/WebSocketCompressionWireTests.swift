import Courier
import Dispatch
import Foundation
import Testing

@testable import CourierAsyncHTTPClient

/// Runs its jobs on a queue, except the first one enqueued after ``arm()``: held until
/// ``release()``, so that a test can stop a task at a chosen point without sleeping.
final class GateExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `armed` and `held` are read and written under `lock` only.
    private let queue = DispatchQueue(label: "gate")
    private let lock = NSLock()
    private var armed = false
    private var held: UnownedJob?
    /// Yields once a job is held.
    let heldJobs = AsyncStream<Void>.makeStream()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let hold = lock.withLock {
            guard armed else { return false }
            armed = false
            held = job
            return true
        }
        if hold {
            heldJobs.continuation.yield()
            return
        }
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Holds the next job enqueued.
    func arm() { lock.withLock { armed = true } }

    /// Runs the held job.
    func release() {
        let job = lock.withLock { () -> UnownedJob? in
            defer { held = nil }
            return held
        }
        if let job { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }
}

extension SerializedSuite {
    /// permessage-deflate against hand-made frames (RawDeflatePeer): RFC 7692's examples, hostile
    /// frames and answers, and two readers racing (found by review, 2026-11-29).
    @Suite("WebSocket compression on the wire")
    struct WebSocketCompressionWireTests {
        @Test("two readers at once: messages inflate in the order they arrived, each to one reader")
        func concurrentReaders() async throws {
            let peer = try RawDeflatePeer("race")
            let (socket, connection) = try await peer.open()
            let xs = WebSocketEvent.message(.text(String(repeating: "X", count: 100)))
            let ys = WebSocketEvent.message(.text(String(repeating: "Y", count: 100)))
            #expect(try await connection.receive() == xs)
            // Reader A is held after its hop brought the first Y message; then the peer sends the
            // second (the same bytes only if the first was inflated before it), and B reads.
            let gate = GateExecutor()
            let first = Task(executorPreference: gate) { () async throws -> WebSocketEvent in
                gate.arm()
                return try await connection.receive()
            }
            try await connection.send(.text("one"))
            let held = await within(10) {
                for await _ in gate.heldJobs.stream { return true }
                return false
            }
            #expect(held != nil, "reader A's hop never completed")
            try await connection.send(.text("go"))
            let second = await within(5) { await Self.result { try await connection.receive() } }
            gate.release()
            let firstResult = await within(5) { await Self.result { try await first.value } }
            #expect((try? second?.get()) == ys)
            #expect((try? firstResult?.get()) == ys)
            await socket.close()
        }

        /// `body`'s value or error.
        static func result<Value: Sendable>(
            _ body: @Sendable () async throws -> Value
        ) async -> Result<Value, any Error> {
            do { return .success(try await body()) } catch { return .failure(error) }
        }

        @Test("a bomb fails with messageTooBig, and the peer gets 1009")
        func bombCloseCode() async throws {
            let peer = try RawDeflatePeer("bomb")
            let (socket, _) = try await peer.open()
            var messages = socket.messages.makeAsyncIterator()
            await #expect(throws: WebSocketError.messageTooBig(limit: 1 << 20)) { try await messages.next() }
            #expect(try await peer.recorded(waitingFor: "close").contains("close 1009"))
        }

        @Test("RFC 7692 §7.2.3's examples: shared window, stored block, BFINAL, two blocks, an empty message")
        func rfcExamples() async throws {
            let peer = try RawDeflatePeer("rfc")
            let (socket, _) = try await peer.open()
            var messages = socket.messages.makeAsyncIterator()
            var received: [WebSocketMessage] = []
            for _ in 0..<7 {
                if let message = try await messages.next() { received.append(message) }
            }
            #expect(received == Array(repeating: .text("Hello"), count: 5) + [.text(""), .text("plain")])
            await socket.close()
        }

        @Test(
            "RSV1 where RFC 7692 gives it no meaning fails with protocolViolation, and the peer gets 1002",
            arguments: ["rsv1-continuation", "rsv1-ping", "rsv1-uncompressed-continuation"])
        func reservedBit(_ scenario: String) async throws {
            let peer = try RawDeflatePeer(scenario)
            let (socket, _) = try await peer.open()
            var messages = socket.messages.makeAsyncIterator()
            let error = await #expect(throws: WebSocketError.self) { try await messages.next() }
            guard case .protocolViolation? = error else {
                Issue.record("expected protocolViolation, got \(String(describing: error))")
                return
            }
            #expect(try await peer.recorded(waitingFor: "close").contains("close 1002"))
        }

        @Test("a compressed message in two frames with a ping between inflates whole; the ping is answered")
        func fragmentsAroundPing() async throws {
            let peer = try RawDeflatePeer("split-ping")
            let (socket, _) = try await peer.open()
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text(String(repeating: "fragmented ", count: 50)))
            await socket.close()
            #expect(try await peer.recorded(waitingFor: "close").contains("pong"))
        }

        @Test(
            "hostile answers fail the handshake typed, fast, without the server's text",
            arguments: [
                "permessage-deflate; client_max_window_bits=", "MANY", "HUGE",
                "permessage-deflate; client_max_window_bits=\"\"", "permessage-deflate; secret-7f3a=1",
                "permessage-deflate; client_max_window_bits=99999999999999999999999",
            ])
        func hostileAnswer(_ extensions: String) async throws {
            let peer = try RawDeflatePeer("none", extensions: extensions)
            let error = await #expect(throws: CourierError.self) { try await peer.open() }
            #expect(!"\(String(describing: error))".contains("secret-7f3a"))
        }
    }
}
