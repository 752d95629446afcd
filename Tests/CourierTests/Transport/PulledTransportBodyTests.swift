import Courier
import CourierTesting
import Foundation
import Testing

/// A `TransportBody` pulled from an engine with backpressure: chunks are asked for only as they
/// are read, and the engine hears once when the reader stops early.
@Suite("TransportBody pulled from an engine")
struct PulledTransportBodyTests {
    /// Hands out `chunks` one per call, counting calls, and records a termination.
    final class Source: Sendable {
        let chunks: [Data]
        let calls = Locked(0)
        let terminations = Locked(0)

        init(_ chunks: [Data]) {
            self.chunks = chunks
        }

        func next() async throws -> Data? {
            let index = calls.withLock { calls in
                defer { calls += 1 }
                return calls
            }
            return index < chunks.count ? chunks[index] : nil
        }

        var body: TransportBody {
            TransportBody(pulling: { try await self.next() }, onTermination: { self.terminations.withLock { $0 += 1 } })
        }
    }

    private let chunks = (0..<5).map { Data(repeating: UInt8($0), count: 1_000 * ($0 + 1)) }

    @Test("chunks arrive in order, each asked for only when read; the body holds one chunk at most")
    func inOrder() async throws {
        let source = Source(chunks)
        let body = source.body
        var iterator = body.makeAsyncIterator()

        let first = try await iterator.next()

        #expect(first == chunks[0])
        #expect(source.calls.value == 1)
        var rest: [Data] = []
        while let chunk = try await iterator.next() { rest.append(chunk) }
        #expect(rest == Array(chunks.dropFirst()))
        #expect(body.peakMemoryBytes == 5_000)
        #expect(source.terminations.value == 0)
    }

    @Test("stopping early tells the engine once")
    func earlyEnd() async throws {
        let source = Source(chunks)
        for try await _ in source.body {
            break
        }
        #expect(source.terminations.value == 1)
        #expect(source.calls.value == 1)
    }

    @Test("dropping the body unread tells the engine")
    func dropped() {
        let source = Source(chunks)
        _ = source.body
        #expect(source.terminations.value == 1)
    }

    @Test("cancelling a reader waiting for a chunk tells the engine and throws a cancellation")
    func cancelledWhileWaiting() async throws {
        let waiting = Locked(false)
        let terminated = Locked(false)
        let body = TransportBody(
            pulling: {
                waiting.withLock { $0 = true }
                while !terminated.value { try await Task.sleep(nanoseconds: 1_000_000) }
                throw CancellationError()
            },
            onTermination: { terminated.withLock { $0 = true } })
        let reader = Task { try await body.collect(upTo: 1 << 20) }
        #expect(await waitUntil(timeout: 5) { waiting.value })

        reader.cancel()

        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(terminated.value)
    }
}
