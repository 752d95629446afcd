import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The streamed response cases.
extension ConformanceRun {
    func performStreamCase() async throws {
        switch testCase {
        case .streamedHeadBeforeBody: try await headBeforeBody()
        case .streamedEarlyEnd: try await earlyEnd()
        case .streamedSlowConsumer: try await slowConsumer()
        default: throw fail("not a streamed response case")
        }
    }

    private func headBeforeBody() async throws {
        let body = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        let release = DispatchSemaphore(value: 0)
        let heldUntilReleased = Locked(false)
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"
            return .raw([
                .send(Data(head.utf8) + body.prefix(1_024)),
                .run { heldUntilReleased.withLock { $0 = release.wait(timeout: .now() + 10) == .success } },
                .send(body.dropFirst(1_024)),
            ])
        }
        let (streamed, arriving): (TransportResponse, TransportBody)
        do {
            (streamed, arriving) = try await self.streamed(Self.request(server, "stream"))
        } catch {
            throw fail("stream threw \(error)")
        }
        release.signal()
        let received = try await arriving.collect(upTo: body.count)
        try expect(heldUntilReleased.value, "the head came back only once the whole body had arrived")
        try expect(streamed.statusCode == 200, "status \(streamed.statusCode)")
        try expect(received == body, "\(received.count) bytes arrived of \(body.count), or different ones")
    }

    /// Asks the engine for a streamed response to `urlRequest`: its head, and its body as it
    /// arrives (the whole body as one chunk from an engine that cannot stream).
    private func streamed(_ urlRequest: URLRequest) async throws -> (TransportResponse, TransportBody) {
        let response = try await transport.send(TransportRequest(urlRequest: urlRequest, delivery: .stream))
        return (response, response.stream ?? TransportBody(response.data))
    }

    private func earlyEnd() async throws {
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(64 << 20)\r\n\r\n"
            return .raw([
                .send(Data(head.utf8) + Data(repeating: 1, count: 64 << 10)), .stall, .run { closed.record(.send) },
            ])
        }
        let (_, body) = try await streamed(Self.request(server, "endless"))
        for try await chunk in body where !chunk.isEmpty {
            break
        }
        try expect(await closed.wait(for: .send, timeout: 5), "the connection stayed open after reading stopped")
    }

    /// A ``TransportConformance/largeBodySize`` body, served in 1 MiB blocks the server never
    /// holds whole, read by a consumer that pauses after every MiB: it arrives whole and in
    /// order, while the body never holds more than ``TransportConformance/streamMemoryBound`` in
    /// memory.
    private func slowConsumer() async throws {
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ $0 >> 10) })
        let blocks = max(1, suite.largeBodySize >> 20)
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(blocks * block.count)\r\n\r\n"
            return .raw([.send(Data(head.utf8)), .sendRepeated(block, count: blocks)])
        }
        let (_, body) = try await streamed(Self.request(server, "slow"))
        var checker = RepeatedBlockChecker(block: block)
        var nextPause = block.count
        for try await chunk in body {
            try expect(checker.check(chunk), "the bytes at offset \(checker.offset) differ from what was sent")
            if checker.offset >= nextPause {
                nextPause += block.count
                try await Task.sleep(nanoseconds: 2_000_000)
            }
        }
        try expect(checker.offset == blocks * block.count, "\(checker.offset) bytes arrived of \(blocks * block.count)")
        let peak = body.peakMemoryBytes
        try expect(
            peak <= suite.streamMemoryBound,
            "the body held \(peak >> 10) KiB in memory for a slow reader (bound \(suite.streamMemoryBound >> 10) KiB)")
    }
}

/// Checks, chunk by chunk, that a body is one block repeated, comparing whole slices.
struct RepeatedBlockChecker {
    let block: Data
    private(set) var offset = 0

    init(block: Data) {
        self.block = block
    }

    /// Whether `chunk` continues the repetition.
    mutating func check(_ chunk: Data) -> Bool {
        var rest = chunk[...]
        while !rest.isEmpty {
            let start = offset % block.count
            let count = min(rest.count, block.count - start)
            let expected = block[(block.startIndex + start)..<(block.startIndex + start + count)]
            guard rest.prefix(count) == expected else { return false }
            rest = rest.dropFirst(count)
            offset += count
        }
        return true
    }
}
