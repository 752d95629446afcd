import Courier
import CourierTesting
import Foundation
import Testing

/// What an outbox keeps after its entries end is bounded too: outcomes nobody acknowledges, and
/// failures nobody removes from the dead-letter list.
@Suite("Outbox record bounds", .timeLimit(.minutes(2)))
struct OutboxRecordBoundsTests {
    @Test("outcomes never acknowledged: past the bound the oldest are let go, on disk too; failures stay dead letters")
    func unacknowledgedOutcomes() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { request, _ in
            request.path == "/notes/0/likes" ? ServerReply(status: 422) : nil
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumUnacknowledgedOutcomes = 5
        let provider = notesProvider(server.baseURL)
        let outbox = try provider.outbox(named: "notes", in: folder.url, options: options)
        var entries: [OutboxEntry<NotesWrite>] = []
        for index in 0..<12 { entries.append(try await outbox.enqueue(.like(noteID: index))) }
        #expect(await waitUntil { writes.writes.count == 11 && outbox.waiting.entries == 0 })
        let kept = await outbox.next(5, timeout: 5)
        #expect(kept.map(\.id) == entries.suffix(5).map(\.id))
        #expect(await outbox.next(6, timeout: 0.3).isEmpty)  // no sixth outcome
        #expect(await waitUntil { folder.files(under: "notes/outcomes").count == 5 })
        #expect(await outbox.deadLetters().map(\.id) == [entries[0].id])
        await outbox.close()

        let reopened = try provider.outbox(named: "notes", in: folder.url, options: options)
        #expect(await reopened.next(5, timeout: 5).map(\.id) == entries.suffix(5).map(\.id))
        await reopened.close()
    }

    @Test("a full dead-letter list refuses new entries, typed, across a reopen; removing a failure makes room")
    func deadLettersFull() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { request, _ in
            request.path.hasPrefix("/notes/9") ? nil : ServerReply(status: 422)
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumDeadLetters = 2
        let provider = notesProvider(server.baseURL)
        let outbox = try provider.outbox(named: "notes", in: folder.url, options: options)
        for index in 0..<2 { _ = try await outbox.enqueue(.like(noteID: index)) }
        #expect(await outbox.next(2).map(\.kind) == [.rejected, .rejected])
        await #expect(throws: OutboxError.deadLettersFull(limit: 2)) { try await outbox.enqueue(.like(noteID: 9)) }
        #expect(outbox.waiting.entries == 0)
        await outbox.close()

        let reopened = try provider.outbox(named: "notes", in: folder.url, options: options)
        await #expect(throws: OutboxError.deadLettersFull(limit: 2)) { try await reopened.enqueue(.like(noteID: 9)) }
        let failures = await reopened.deadLetters()
        try await reopened.removeDeadLetter(try #require(failures.first))
        await #expect(throws: OutboxError.unknownOutcome) { try await reopened.removeDeadLetter(failures[0]) }
        let taken = try await reopened.enqueue(.like(noteID: 9))
        #expect(await reopened.next(3).last?.id == taken.id)
        #expect(writes.writes.map(\.path).last == "/notes/9/likes")
        await reopened.close()
    }

    @Test("two removals of one failure at once: one succeeds, the other is unknownOutcome, and the count stays true")
    func removalRace() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { _, _ in ServerReply(status: 422) }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumDeadLetters = 1
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: options)
        _ = try await outbox.enqueue(.like(noteID: 1))
        let failure = try #require(await outbox.next(1).first)
        async let first: Bool = (try? await outbox.removeDeadLetter(failure)) != nil
        async let second: Bool = (try? await outbox.removeDeadLetter(failure)) != nil
        #expect([await first, await second].filter { $0 }.count == 1)
        _ = try await outbox.enqueue(.like(noteID: 2))
        #expect(await outbox.next(2).count == 2)
        await #expect(throws: OutboxError.deadLettersFull(limit: 1)) { try await outbox.enqueue(.like(noteID: 3)) }
        await outbox.close()
    }

    @Test("a 2xx answer of 300 MiB: the outcome comes with the start of the body, marked cut, before the rest is sent")
    func endlessAnswer() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        // The server holds the rest of the body until the outcome is seen: an outbox that read
        // the whole answer would see it only after the server gave up waiting.
        let outcomeSeen = DispatchSemaphore(value: 0)
        let gaveUp = Locked(false)
        let chunk = Data(repeating: 0x61, count: 1 << 20)
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 201 Created\r\nContent-Length: \(300 << 20)\r\n\r\n".utf8)),
                .sendRepeated(chunk, count: 2),
                .run { if outcomeSeen.wait(timeout: .now() + 10) == .timedOut { gaveUp.withLock { $0 = true } } },
                .sendRepeated(chunk, count: 298),
            ])
        }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumStoredBody = 1_000
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: options)
        let entry = try await outbox.enqueue(.like(noteID: 1))
        let outcome = try #require(await outbox.next(1, timeout: 30).first)
        outcomeSeen.signal()
        #expect(!gaveUp.value)
        #expect(outcome.id == entry.id)
        #expect(outcome.kind == .delivered)
        #expect(outcome.attempts == 1)
        #expect(outcome.body == chunk.prefix(1_000))
        #expect(outcome.isBodyTruncated)
        await outbox.close()
    }
}
