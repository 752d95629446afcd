import Courier
import CourierTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An outbox's enqueue with its durable write, against the same durable write by hand; and the
/// memory an outbox holds with entries waiting.
enum OutboxBench {
    /// One numbered write, `Codable`.
    struct Write: TargetType, Codable {
        let number: Int
        let text: String
        var baseURL: URL { URL(string: "http://127.0.0.1:9")! }
        var path: String { "/writes" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestJSONEncodable(["text": text]) }
        var headers: [String: String]? { nil }
    }

    /// µs per entry and entries per second, one at a time: `courier` (``Outbox/enqueue(_:)``,
    /// its sender waiting on a closed port), or `raw` (the JSON a hand-written queue would store,
    /// written durably by hand: a file beside, `fsync`, `rename`, `fsync` of the folder).
    static func enqueue(_ variant: String, count: Int) async throws -> [String: Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let closed = try ClosedPort()
        defer { closed.release() }
        var options = OutboxOptions()
        options.delay = 3_600
        options.maximumEntries = count + 1_000
        options.maximumBytes = 1 << 30
        let text = String(repeating: "a note of some length ", count: 8)
        var enqueue: (Int) async throws -> Void
        var outbox: Outbox<Write>?
        switch variant {
        case "courier":
            let opened = try Provider<Write>().outbox(named: "bench", in: folder, options: options)
            outbox = opened
            enqueue = { _ = try await opened.enqueue(Write(number: $0, text: text)) }
        case "raw":
            let entries = folder.appendingPathComponent("entries")
            try FileManager.default.createDirectory(at: entries, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            enqueue = { number in
                let record = RawEntry(
                    id: UUID(), key: UUID().uuidString, enqueued: Date(), target: Write(number: number, text: text))
                try durablyWrite(try encoder.encode(record), to: entries.appendingPathComponent("\(number).entry"))
            }
        default: throw BenchError.unknown("outbox-enqueue", variant)
        }
        for number in 0..<min(100, count / 10) { try await enqueue(-1 - number) }
        let start = now()
        for number in 0..<count { try await enqueue(number) }
        let elapsed = now() - start
        await outbox?.close()
        return ["us_per_entry": elapsed / Double(count) * 1e6, "entries_per_second": Double(count) / elapsed]
    }

    /// MiB of resident memory an outbox adds when it opens a queue of `count` waiting entries
    /// (written beforehand as an earlier process would have left them) and works on it for a
    /// second: `courier` with `count` entries, `small` with 1,000 (the ratio says whether memory
    /// grows with the entries).
    static func memory(_ variant: String, count: Int) async throws -> [String: Double] {
        let entries = variant == "small" ? 1_000 : count
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = folder.appendingPathComponent("bench/entries")
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = String(repeating: "a note of some length ", count: 8)
        for number in 0..<entries {
            let record = RawEntry(
                id: UUID(), key: UUID().uuidString, enqueued: Date(), target: Write(number: number, text: text))
            let digits = String(number + 1)
            let name = String(repeating: "0", count: 20 - digits.count) + digits + ".entry"
            try encoder.encode(record).write(to: queue.appendingPathComponent(name))
        }
        let closed = try ClosedPort()
        defer { closed.release() }
        var options = OutboxOptions()
        options.delay = 0.01
        options.maximumDelay = 0.05
        options.maximumEntries = entries + 1
        let baseline = Memory.currentMiB
        let outbox = try Provider<Write>().outbox(named: "bench", in: folder, options: options)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let waiting = outbox.waiting.entries
        let grown = Memory.currentMiB - baseline
        await outbox.close()
        guard waiting == entries else { throw BenchError.failed("\(waiting) entries waiting, not \(entries)") }
        return ["rss_growth_mib": grown]
    }

    /// What a hand-written queue stores per entry.
    struct RawEntry: Encodable {
        let id: UUID
        let key: String
        let enqueued: Date
        let target: Write
        var attempts = 0
    }

    /// `data` written as `url` durably, as a careful hand-written queue writes it.
    static func durablyWrite(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw BenchError.failed("open") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(descriptor) == 0 else { throw BenchError.failed("write") }
        close(descriptor)
        guard rename(temporary.path, url.path) == 0 else { throw BenchError.failed("rename") }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY)
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw BenchError.failed("fsync") }
    }
}
