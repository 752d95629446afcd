import Courier
import CourierTesting
import Foundation
import Testing

/// An outbox against a loopback server that applies each key once.
@Suite("Outbox", .timeLimit(.minutes(2)))
struct OutboxTests {
    @Test("an entry is on disk when enqueue returns, goes out with its key, and its outcome waits for acknowledge")
    func delivered() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        let entry = try await outbox.enqueue(.create(text: "hello"))
        let outcomes = await outbox.next(1)
        let outcome = try #require(outcomes.first)
        #expect(outcome.id == entry.id)
        #expect(outcome.kind == .delivered)
        #expect(outcome.statusCode == 201)
        #expect(outcome.target == .create(text: "hello"))
        #expect(outcome.attempts == 1)
        #expect(writes.writes == [.init(key: entry.idempotencyKey, path: "/notes", body: #"{"text":"hello"}"#)])
        // Not acknowledged: a new iteration delivers it again.
        #expect(await outbox.next(1).map(\.id) == [entry.id])
        try await outbox.acknowledge(outcome)
        #expect(await outbox.next(1, timeout: 0.3).isEmpty)
        #expect(outbox.waiting == (0, 0))
        await outbox.close()
    }

    @Test("20 entries refused twice each (503, Retry-After: 0, 502): applied once each, in order, the key the same")
    func refusalsInOrder() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { _, tries in
            switch tries {
            case 1: ServerReply(status: 503, headers: ["Retry-After": "0"])
            case 2: ServerReply(status: 502)
            default: nil
            }
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        var entries: [OutboxEntry<NotesWrite>] = []
        for index in 0..<20 { entries.append(try await outbox.enqueue(.like(noteID: index))) }
        let outcomes = await outbox.next(20)
        #expect(outcomes.map(\.id) == entries.map(\.id))
        #expect(outcomes.allSatisfy { $0.kind == .delivered && $0.attempts == 3 })
        #expect(writes.writes.map(\.key) == entries.map(\.idempotencyKey))
        #expect(entries.allSatisfy { writes.tries(of: $0.idempotencyKey) == 3 })
        await outbox.close()
    }

    @Test("a 422 ends the entry as rejected with its body, on the dead-letter list; the next entry goes on")
    func rejected() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { request, _ in
            request.path == "/notes/1/likes"
                ? ServerReply(status: 422, headers: ["Set-Cookie": "session=s3cr3t"], body: Data("no such note".utf8))
                : nil
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        _ = try await outbox.enqueue(.like(noteID: 1))
        _ = try await outbox.enqueue(.like(noteID: 2))
        let outcomes = await outbox.next(2)
        #expect(outcomes.map(\.kind) == [.rejected, .delivered])
        let rejected = try #require(outcomes.first)
        #expect(rejected.statusCode == 422)
        #expect(rejected.body == Data("no such note".utf8))
        #expect(rejected.headerFields["Set-Cookie"] == nil)
        #expect(rejected.attempts == 1)
        for outcome in outcomes { try await outbox.acknowledge(outcome) }
        #expect(await outbox.deadLetters().map(\.id) == [rejected.id])
        try await outbox.removeDeadLetter(rejected)
        #expect(await outbox.deadLetters().isEmpty)
        #expect(!folder.contents().contains { String(decoding: $0, as: UTF8.self).contains("s3cr3t") })
        await outbox.close()
    }

    @Test("with Moya's default validation (every status accepted), a 503 still waits and a 422 is rejected")
    func defaultValidation() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { request, tries in
            if request.path == "/loose/1", tries == 1 { return ServerReply(status: 503) }
            return request.path == "/loose/2" ? ServerReply(status: 422) : nil
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let provider = Provider<LooseWrite>(endpointClosure: {
            Provider.defaultEndpointMapping(for: $0).replacing(origin: server.baseURL)
        })
        let outbox = try provider.outbox(named: "loose", in: folder.url, options: quickOptions())
        try await outbox.enqueue(.post(id: 1))
        try await outbox.enqueue(.post(id: 2))
        let outcomes = await outbox.next(2)
        #expect(outcomes.map(\.kind) == [.delivered, .rejected])
        #expect(outcomes.map(\.attempts) == [2, 1])
        await outbox.close()
    }

    @Test("an enqueue does not cut a back-off short; a flush does")
    func backOff() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        defer { server.stop() }
        let clock = TestClock()
        let outbox = try notesProvider(server.baseURL, options: ProviderOptions(clock: clock))
            .outbox(named: "notes", in: folder.url)
        try await outbox.enqueue(.like(noteID: 1))
        try await clock.waitForSleepers(1)
        #expect(server.requests.count == 1)
        try await outbox.enqueue(.like(noteID: 2))
        // Nothing happens until the wait ends: the absence is checked for half a second.
        #expect(!(await waitUntil(timeout: 0.5) { server.requests.count > 1 }))
        outbox.flush()
        #expect(await waitUntil { server.requests.count == 2 })
        #expect(Set(server.requests.map(\.path)) == ["/notes/1/likes"])
        await outbox.close()
    }

    @Test("bounds: entries past maximumEntries or maximumBytes are refused, typed, and not taken")
    func bounds() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let closed = try ClosedPort()
        defer { closed.release() }
        var options = quickOptions()
        options.maximumEntries = 3
        let outbox = try notesProvider(closed.baseURL).outbox(named: "notes", in: folder.url, options: options)
        for index in 0..<3 { _ = try await outbox.enqueue(.like(noteID: index)) }
        await #expect(throws: OutboxError.full(entries: 3)) { try await outbox.enqueue(.like(noteID: 9)) }
        #expect(outbox.waiting.entries == 3)
        await outbox.close()

        var small = quickOptions()
        small.maximumBytes = 400
        let other = try notesProvider(closed.baseURL).outbox(named: "small", in: folder.url, options: small)
        _ = try await other.enqueue(.create(text: "short"))
        await #expect(throws: OutboxError.tooManyBytes(limit: 400)) {
            try await other.enqueue(.create(text: String(repeating: "long ", count: 100)))
        }
        #expect(other.waiting.entries == 1)
        await other.close()
    }

    @Test("one owner per queue; a name that is not a plain folder name is refused")
    func ownership() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let provider = notesProvider(URL(string: "http://127.0.0.1:9")!)
        let first = try provider.outbox(named: "notes", in: folder.url)
        #expect(throws: OutboxError.locked(name: "notes")) { try provider.outbox(named: "notes", in: folder.url) }
        let other = try provider.outbox(named: "likes", in: folder.url)
        await first.close()
        let again = try provider.outbox(named: "notes", in: folder.url)
        await again.close()
        await other.close()
        for name in ["", "../up", ".hidden", "a/b", String(repeating: "x", count: 65), "naïve"] {
            #expect(throws: OutboxError.invalidName(name)) { try provider.outbox(named: name, in: folder.url) }
        }
    }

    @Test("an outbox let go without close() ends between two tries and releases its queue; the next owner sends")
    func letGo() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let accepting = Locked(false)
        let writes = IdempotentServer { _, _ in accepting.value ? nil : ServerReply(status: 503) }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let provider = notesProvider(server.baseURL)
        weak var dropped: Outbox<NotesWrite>?
        var keys: [String] = []
        do {
            let outbox = try provider.outbox(named: "notes", in: folder.url, options: quickOptions())
            for index in 0..<3 { keys.append(try await outbox.enqueue(.like(noteID: index)).idempotencyKey) }
            #expect(await waitUntil { writes.tries(of: keys[0]) >= 2 })
            dropped = outbox
        }
        #expect(await waitUntil { dropped == nil })
        let next = try provider.outbox(named: "notes", in: folder.url, options: quickOptions())
        accepting.withLock { $0 = true }
        next.flush()
        #expect(await next.next(3).map(\.kind) == [.delivered, .delivered, .delivered])
        #expect(writes.writes.map(\.key) == keys)
        await next.close()
    }
}
