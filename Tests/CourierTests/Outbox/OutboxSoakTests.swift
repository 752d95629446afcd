import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The outbox under an outage, a flapping server, an expired token and a full disk: run alone by
/// .ci/run (COURIER_PROCESS_TESTS=1), since the outage lasts 10 s.
@Suite(
    "Outbox under outage", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: ProcessInfo.processInfo.environment["COURIER_PROCESS_TESTS"] == "1", "run alone by .ci/run"))
struct OutboxSoakTests {
    /// A server that applies each key once, and, while flapping, cuts a third of the connections
    /// after the request was read: half of those before applying the write, half after (the
    /// answer of an applied write lost).
    final class FlappingServer: Sendable {
        let writes = IdempotentServer()
        let flapping = Locked(false)
        let cuts = Locked(0)

        func handle(_ request: ServerRequest) -> ServerReply {
            guard flapping.value, Int.random(in: 0..<3) == 0 else { return writes.handle(request) }
            cuts.withLock { $0 += 1 }
            if Bool.random() { _ = writes.handle(request) }
            var cut = ServerReply()
            cut.closesWithoutReply = true
            return cut
        }
    }

    @Test("1,000 entries in 4 queues, the server down for 10 s then flapping: each applied once, in order per queue")
    func outageAndFlapping() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let down = try ClosedPort()
        let port = down.port
        var options = OutboxOptions()
        options.delay = 0.05
        options.maximumDelay = 0.5
        let provider = notesProvider(down.baseURL)
        let queues = try (0..<4).map { try provider.outbox(named: "queue-\($0)", in: folder.url, options: options) }
        var keys: [[String]] = Array(repeating: [], count: 4)
        for index in 0..<1_000 {
            let entry = try await queues[index % 4].enqueue(.like(noteID: index))
            keys[index % 4].append(entry.idempotencyKey)
        }
        try await Task.sleep(nanoseconds: 10_000_000_000)  // the outage: the entries wait it out
        down.release()
        let flapping = FlappingServer()
        flapping.flapping.withLock { $0 = true }
        let server = try LoopbackServer(port: port) { flapping.handle($0) }
        defer { server.stop() }
        for queue in queues { queue.flush() }
        let outcomes = await withTaskGroup(of: (Int, [OutboxOutcome<NotesWrite>]).self) { group in
            for (index, queue) in queues.enumerated() { group.addTask { (index, await queue.next(250, timeout: 120)) } }
            var all: [Int: [OutboxOutcome<NotesWrite>]] = [:]
            for await (index, outcomes) in group { all[index] = outcomes }
            return all
        }
        let applied = flapping.writes.writes.map(\.key)
        #expect(Set(applied).count == applied.count, "a write applied twice")
        for index in 0..<4 {
            #expect(outcomes[index]?.count == 250)
            #expect(outcomes[index]?.allSatisfy { $0.kind == .delivered } == true)
            // Applied in the order the queue took them.
            #expect(applied.filter { Set(keys[index]).contains($0) } == keys[index])
        }
        #expect(flapping.cuts.value > 0)
        for queue in queues { await queue.close() }
    }

    @Test("a token that expired while 50 entries waited: one refresh, every entry applied with the new one")
    func expiredToken() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let signatures = Locked<[String]>([])
        let writes = IdempotentServer { request, _ in
            let signature = request.header("Authorization") ?? ""
            guard signature == "Bearer fresh" else { return ServerReply(status: 401) }
            signatures.withLock { $0.append(signature) }
            return nil
        }
        let down = try ClosedPort()
        let port = down.port
        let refreshes = Locked(0)
        let interceptor = AuthenticationInterceptor(
            authenticator: WebSocketSignInTests.Swapper(refreshes: refreshes),
            credential: WebSocketSignInTests.Token(value: "expired"))
        let outbox = try notesProvider(down.baseURL, interceptor: interceptor)
            .outbox(named: "notes", in: folder.url, options: quickOptions())
        for index in 0..<50 { _ = try await outbox.enqueue(.like(noteID: index)) }
        down.release()
        let server = try LoopbackServer(port: port) { writes.handle($0) }
        defer { server.stop() }
        outbox.flush()
        let outcomes = await outbox.next(50)
        #expect(outcomes.count == 50 && outcomes.allSatisfy { $0.kind == .delivered })
        #expect(refreshes.value == 1)
        #expect(writes.writes.count == 50)
        #expect(signatures.value.count == 50)
        await outbox.close()
    }

    @Test(
        "a full disk: enqueue fails with diskFull, leaving room for outcomes; nothing half-written stays; all held is sent",
        .enabled(if: getuid() == 0, "mounts a 1 MiB tmpfs, which needs root"))
    func fullDisk() async throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-tiny-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mount) }
        let mounted = Process()
        mounted.executableURL = URL(fileURLWithPath: "/bin/mount")
        mounted.arguments = ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mount.path]
        try mounted.run()
        mounted.waitUntilExit()
        try #require(mounted.terminationStatus == 0, "mounting a tmpfs needs root")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mount.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        let writes = IdempotentServer()
        let down = try ClosedPort()
        let port = down.port
        var options = quickOptions()
        options.maximumBytes = 1 << 30
        let outbox = try notesProvider(down.baseURL).outbox(named: "notes", in: mount, options: options)
        var taken = 0
        let text = String(repeating: "x", count: 3_000)
        while taken < 1_000 {
            do {
                _ = try await outbox.enqueue(.create(text: text))
                taken += 1
            } catch {
                #expect(error == .diskFull)
                break
            }
        }
        #expect(taken > 5 && taken < 1_000)
        await outbox.close()
        let names = try FileManager.default.contentsOfDirectory(
            atPath: mount.appendingPathComponent("notes/entries").path)
        #expect(
            names.allSatisfy { $0.hasSuffix(".entry") },
            "a partial file stayed: \(names.filter { !$0.hasSuffix(".entry") })")
        #expect(names.count == taken)
        down.release()
        let server = try LoopbackServer(port: port) { writes.handle($0) }
        defer { server.stop() }
        let reopened = try notesProvider(server.baseURL).outbox(named: "notes", in: mount, options: options)
        #expect(await reopened.next(taken, timeout: 60).count == taken)
        #expect(writes.writes.count == taken)
        await reopened.close()
    }
}
