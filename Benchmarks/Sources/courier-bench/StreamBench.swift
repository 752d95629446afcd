import Courier
import CourierTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streamed responses: memory with a reader slower than the server, and how soon the connection
/// closes once the reader stops.
enum StreamBench {
    /// Courier streams the 100 MiB file and reads it slowly (10 ms per MiB, so the server is
    /// faster): the RSS growth, and the most the body held in memory at once.
    /// `raw`: a minimal URLSession delegate that counts each chunk and drops it, the floor of what
    /// URLSession's own buffering costs.
    static func slowReader(_ variant: String, _ baseURL: URL) async throws -> [String: Double] {
        if variant == "raw" { return try await countingDelegate(baseURL) }
        guard variant == "courier" else { throw BenchError.unknown("stream-slow", variant) }
        let provider = Provider<HTTPTarget>()
        _ = try await provider.request(HTTPTarget(baseURL: baseURL, path: "small.json"))
        let baseline = Memory.currentMiB
        let start = now()
        let streamed = try await provider.stream(HTTPTarget(baseURL: baseURL, path: "large.bin"))
        var received = 0
        var nextPause = 1 << 20
        for try await chunk in streamed.body {
            received += chunk.count
            if received >= nextPause {
                nextPause += 1 << 20
                try await Task.sleep(nanoseconds: 10_000_000)
            }
        }
        guard received == 100 << 20 else { throw BenchError.failed("body of \(received) bytes") }
        return [
            "seconds": now() - start, "peak_rss_growth_mib": Memory.peakMiB - baseline,
            "peak_body_memory_mib": Double(streamed.body.peakMemoryBytes) / 1_048_576,
        ]
    }

    private static func countingDelegate(_ baseURL: URL) async throws -> [String: Double] {
        let delegate = CountingDelegate()
        let session = URLSession(
            configuration: URLSessionTransport.defaultConfiguration, delegate: delegate, delegateQueue: nil)
        _ = try await session.data(for: URLRequest(url: baseURL.appendingPathComponent("small.json")))
        let baseline = Memory.currentMiB
        let start = now()
        let received = try await delegate.get(session, baseURL.appendingPathComponent("large.bin"))
        guard received == 100 << 20 else { throw BenchError.failed("body of \(received) bytes") }
        return ["seconds": now() - start, "peak_rss_growth_mib": Memory.peakMiB - baseline]
    }

    /// `count` times: a 1 GiB response starts, the reader stops after its first bytes, and the
    /// time until the server sees the connection closed is measured. Courier breaks out of its
    /// loop; raw URLSession cancels its data task once the server has sent the first bytes.
    static func breakLatency(_ variant: String, count: Int) async throws -> [String: Double] {
        let sent = TimeSlot()
        let closed = TimeSlot()
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: \(1 << 30)\r\n\r\n".utf8) + Data(count: 64 << 10)),
                .run { sent.set(now()) }, .stall, .run { closed.set(now()) },
            ])
        }
        defer { server.stop() }
        let stop = try stopper(variant, server.baseURL, sent: sent)
        var latencies: [Double] = []
        for _ in 0..<count {
            sent.set(nil)
            closed.set(nil)
            let stoppedAt = try await stop()
            latencies.append((try await value(of: closed, within: 5) - stoppedAt) * 1000)
        }
        let sorted = latencies.sorted()
        return [
            "p50_ms": sorted[sorted.count / 2], "p99_ms": sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
            "max_ms": sorted.last ?? 0,
        ]
    }

    /// Starts one response and stops reading it; returns when it stopped.
    private static func stopper(
        _ variant: String, _ baseURL: URL, sent: TimeSlot
    ) throws -> @Sendable () async throws -> Double {
        let url = baseURL.appendingPathComponent("endless")
        switch variant {
        case "courier":
            let provider = Provider<HTTPTarget>()
            return {
                for try await chunk in try await provider.stream(HTTPTarget(baseURL: baseURL, path: "endless")).body
                where !chunk.isEmpty {
                    break
                }
                return now()
            }
        case "raw":
            let session = URLSession(configuration: URLSessionTransport.defaultConfiguration)
            return {
                let task = session.dataTask(with: URLRequest(url: url)) { _, _, _ in }
                task.resume()
                _ = try await value(of: sent, within: 5)
                let stoppedAt = now()
                task.cancel()
                return stoppedAt
            }
        default: throw BenchError.unknown("stream-break", variant)
        }
    }

    /// The value once it is set, polled every 0.1 ms.
    private static func value(of slot: TimeSlot, within seconds: Double) async throws -> Double {
        let deadline = now() + seconds
        while now() < deadline {
            if let value = slot.value { return value }
            try await Task.sleep(nanoseconds: 100_000)
        }
        throw BenchError.failed("no event within \(seconds) s")
    }
}

/// A moment, set on the server's thread and read by the measuring task.
final class TimeSlot: @unchecked Sendable {
    // Safe: `moment` is only touched under `lock`.
    private let lock = NSLock()
    private var moment: Double?

    var value: Double? { lock.withLock { moment } }

    func set(_ value: Double?) {
        lock.withLock { moment = value }
    }
}

/// Counts a data task's bytes and drops them.
final class CountingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe: `received` and `continuation` are only touched under `lock`.
    private let lock = NSLock()
    private var received = 0
    private var continuation: CheckedContinuation<Int, any Error>?

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received += data.count }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (waiting, count) = lock.withLock { (continuation.take(), received) }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: count) }
    }

    func get(_ session: URLSession, _ url: URL) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock {
                self.continuation = continuation
                received = 0
            }
            session.dataTask(with: URLRequest(url: url)).resume()
        }
    }
}

/// A reader that stops reading an endless stream.
enum StalledReaderBench {
    /// An in-process server sends 2 GiB (without end, as far as the reader can tell; more would
    /// make the raw variant's buffer a danger to the machine); the reader takes the first chunk and then reads
    /// nothing for `seconds`. Courier (URLSession, the default limits) keeps the backlog in memory
    /// up to 4 MiB and on disk up to the 256 MiB cap, then cancels the transfer. `raw`: a
    /// URLSession delegate that hands chunks to an `AsyncStream` with the default (unbounded)
    /// buffering, what a stream reader written by hand on Linux does.
    static func run(_ variant: String, seconds: Double) async throws -> [String: Double] {
        let sent = BlockCounter()
        let block = Data(count: 1 << 20)
        let server = try LoopbackServer { _ in
            var steps: [ServerReply.RawStep] = [
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: \(2 << 30)\r\n\r\n".utf8))
            ]
            for _ in 0..<2_048 { steps += [.send(block), .run { sent.add() }] }
            return .raw(steps)
        }
        defer { server.stop() }
        let baseline = Memory.currentMiB
        var figures: [String: Double]
        switch variant {
        case "courier": figures = try await courier(server.baseURL, stall: seconds)
        case "raw": figures = try await raw(server.baseURL, stall: seconds)
        default: throw BenchError.unknown("stream-stalled", variant)
        }
        figures["peak_rss_growth_mib"] = Memory.peakMiB - baseline
        figures["server_sent_mib"] = Double(sent.count)
        return figures
    }

    private static func courier(_ baseURL: URL, stall seconds: Double) async throws -> [String: Double] {
        let provider = Provider<HTTPTarget>()
        let streamed = try await provider.stream(HTTPTarget(baseURL: baseURL, path: "endless"))
        var chunks = streamed.body.makeAsyncIterator()
        _ = try await chunks.next()
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        var refused = 0.0
        do {
            while try await chunks.next() != nil {}
        } catch let error as CourierError {
            if (error.underlyingError as? StreamingError)?.code == .backlogTooLarge { refused = 1 }
        }
        let backlog = Double(streamed.body.peakBacklogBytes) / 1_048_576
        let memory = Double(streamed.body.peakMemoryBytes) / 1_048_576
        return [
            "peak_backlog_mib": backlog, "peak_body_memory_mib": memory, "spill_mib": max(0, backlog - memory),
            "cap_mib": Double(provider.streamingLimits.maximumBacklog) / 1_048_576, "ended_backlog_too_large": refused,
        ]
    }

    private static func raw(_ baseURL: URL, stall seconds: Double) async throws -> [String: Double] {
        let delegate = StreamingDelegate()
        let session = URLSession(
            configuration: URLSessionTransport.defaultConfiguration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: URLRequest(url: baseURL.appendingPathComponent("endless")))
        task.resume()
        var chunks = delegate.chunks.makeAsyncIterator()
        _ = await chunks.next()
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        task.cancel()
        session.invalidateAndCancel()
        return [:]
    }
}

/// Counts the blocks a server thread sent.
final class BlockCounter: @unchecked Sendable {
    // Safe: `sent` is only touched under `lock`.
    private let lock = NSLock()
    private var sent = 0

    var count: Int { lock.withLock { sent } }

    func add() {
        lock.withLock { sent += 1 }
    }
}

/// Hands a data task's chunks to an unbounded `AsyncStream`.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let chunks: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation

    override init() {
        (chunks, continuation) = AsyncStream.makeStream()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish()
    }
}
