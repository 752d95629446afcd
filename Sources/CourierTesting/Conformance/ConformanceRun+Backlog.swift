import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A reader that stops reading an endless stream: the body never holds more than its backlog
/// limit, whether the transport makes the server wait (backpressure) or ends the stream with
/// `backlogTooLarge` and closes the connection.
extension ConformanceRun {
    func backlogBound() async throws {
        let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
        // Far more than any buffer on the way, and than loopback carries while a late stop waits:
        // on Linux `URLSessionTask.cancel()` waits for URLSession's work queue, measured up to
        // 2.7 s with the machine's two cores busy, during which 4 GiB could arrive.
        let blocks = 16_384
        let sent = Locked(0)
        let server = try LoopbackServer { _ in
            var steps: [ServerReply.RawStep] = [
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: \(blocks * block.count)\r\n\r\n".utf8))
            ]
            for _ in 0..<blocks { steps += [.send(block), .run { sent.withLock { $0 += 1 } }] }
            return .raw(steps)
        }
        let limits = StreamingLimits(memoryBufferSize: 1 << 20, maximumBacklog: 8 << 20)
        let provider = Provider<StreamTarget>(transport: transport)
        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL), limits: limits)
        var chunks = streamed.body.makeAsyncIterator()
        var checker = RepeatedBlockChecker(block: block)
        guard let first = try await chunks.next() else { throw fail("the stream ended before its first chunk") }
        try expect(checker.check(first), "the first chunk differs from what was sent")

        // The reader stops until the server can send no more.
        let stalledAt = await Self.steady(sent, within: 20)
        let pushed = stalledAt * block.count
        try expect(
            pushed < blocks * block.count, "the server sent the whole \(blocks >> 10) GiB to a reader that stopped")
        let peak = streamed.body.peakBacklogBytes
        try expect(
            peak <= limits.maximumBacklog,
            "the body held \(peak >> 10) KiB for a reader that stopped (limit \(limits.maximumBacklog >> 10) KiB)")

        let ending = try await readOn(&chunks, checker: &checker, upTo: 32 << 20)
        switch ending {
        case .waited:
            break
        case .refused(let error, let read):
            let streaming = error.underlyingError as? StreamingError
            try expect(
                streaming == .backlogTooLarge(limit: limits.maximumBacklog),
                "a reader that fell behind got \(error), not backlogTooLarge")
            try expect(read <= limits.maximumBacklog + block.count, "\(read) bytes were kept beyond the limit")
        }
        _ = consume chunks
        try expect(await Self.closed(server, within: 5), "the connection stayed open after the stream ended")
    }

    /// How a reader that resumed found the stream.
    enum BacklogEnding {
        /// The transfer had waited for the reader: the bytes go on, whole and in order.
        case waited
        /// The stream ended with this error once the reader had read `read` bytes kept for it.
        case refused(CourierError, read: Int)
    }

    /// Reads on until `limit` more bytes, the end, or an error.
    private func readOn(
        _ chunks: inout ResponseBody.AsyncIterator, checker: inout RepeatedBlockChecker, upTo limit: Int
    ) async throws -> BacklogEnding {
        var read = 0
        do {
            while read < limit, let chunk = try await chunks.next() {
                try expect(checker.check(chunk), "the bytes at offset \(checker.offset) differ from what was sent")
                read += chunk.count
            }
            return .waited
        } catch let error as CourierError {
            return .refused(error, read: read)
        }
    }

    /// The count once it has not moved for half a second (or after `seconds`).
    static func steady(_ count: Locked<Int>, within seconds: TimeInterval) async -> Int {
        let end = Date().addingTimeInterval(seconds)
        var last = count.value
        var since = Date()
        while Date() < end {
            try? await Task.sleep(nanoseconds: 50_000_000)
            let now = count.value
            if now != last {
                (last, since) = (now, Date())
            } else if Date().timeIntervalSince(since) >= 0.5 {
                break
            }
        }
        return last
    }

    /// Whether `server` has no connection left within `seconds`.
    static func closed(_ server: LoopbackServer, within seconds: TimeInterval) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while server.openConnections > 0 && Date() < end {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return server.openConnections == 0
    }
}
