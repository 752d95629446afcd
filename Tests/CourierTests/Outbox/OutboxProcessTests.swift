import Courier
import CourierTesting
import Foundation
import Testing

/// An outbox in a process killed (SIGKILL) at random points of enqueueing and sending, 50 times,
/// restarted each time: run alone by .ci/run (COURIER_PROCESS_TESTS=1).
@Suite(
    "Outbox processes killed", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: ProcessInfo.processInfo.environment["COURIER_PROCESS_TESTS"] == "1", "run alone by .ci/run"))
struct OutboxProcessTests {
    /// What the server saw: each write's number per request, in order, and its key.
    final class Writes: Sendable {
        private let requests = Locked<[(number: Int, key: String)]>([])

        var all: [(number: Int, key: String)] { requests.value }

        func handle(_ request: ServerRequest) -> ServerReply {
            let number = Int(String(decoding: request.body, as: UTF8.self)) ?? -1
            requests.withLock { $0.append((number, request.header("Idempotency-Key") ?? "")) }
            return ServerReply(status: 201)
        }
    }

    /// Runs the probe for `first ..< first + count`, killing it after `killAfter` seconds (or
    /// letting it drain); returns the numbers it printed as enqueued.
    static func run(
        _ folder: URL, _ server: URL, first: Int, count: Int, killAfter: TimeInterval?
    ) async throws -> (enqueued: [Int], drained: Bool) {
        let process = Process()
        process.executableURL = DiskCacheProcessesTests.probe
        process.arguments = ["outbox", folder.path, server.absoluteString, String(first), String(count)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        if let killAfter {
            try await Task.sleep(nanoseconds: UInt64(killAfter * 1e9))
            kill(process.processIdentifier, SIGKILL)
        }
        await DiskCacheProcessesTests.offThePool { process.waitUntilExit() }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        let enqueued = lines.compactMap { $0.hasPrefix("enqueued ") ? Int($0.dropFirst(9)) : nil }
        return (enqueued, lines.contains("drained"))
    }

    @Test(
        "killed 50 times while enqueueing and sending: no acknowledged entry lost, in order, a key resent only by a kill"
    )
    func killed() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = Writes()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var acknowledged: Set<Int> = []
        let kills = 50
        for round in 0..<kills {
            let run = try await Self.run(
                folder.url, server.baseURL, first: round * 20, count: 20, killAfter: Double.random(in: 0.005...0.15))
            acknowledged.formUnion(run.enqueued)
        }
        let last = try await Self.run(folder.url, server.baseURL, first: kills * 20, count: 5, killAfter: nil)
        #expect(last.drained)
        acknowledged.formUnion(last.enqueued)

        let seen = writes.all
        let applied = Set(seen.map(\.number))
        #expect(acknowledged.isSubset(of: applied), "lost: \(acknowledged.subtracting(applied).sorted().prefix(10))")
        // First in, first out: the first request of each write comes in the order they were taken.
        var firsts: [Int] = []
        var keys: [Int: String] = [:]
        for request in seen where keys[request.number] == nil {
            keys[request.number] = request.key
            firsts.append(request.number)
        }
        #expect(firsts == firsts.sorted())
        // One key per write, whatever the process; a write sent again only when a kill cut its try.
        #expect(seen.allSatisfy { keys[$0.number] == $0.key })
        #expect(seen.count - applied.count <= kills, "\(seen.count - applied.count) writes sent again")
        #expect(acknowledged.count >= kills)
    }
}
