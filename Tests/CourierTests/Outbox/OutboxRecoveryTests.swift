import Courier
import CourierTesting
import Foundation
import Testing

/// What an outbox keeps across a close, a crash and a restart, and what it never writes.
@Suite("Outbox recovery", .timeLimit(.minutes(2)))
struct OutboxRecoveryTests {
    @Test("entries enqueued while the server is down wait through a restart, then go out in order")
    func restart() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let down = try ClosedPort()
        var entries: [OutboxEntry<NotesWrite>] = []
        let offline = try notesProvider(down.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        for index in 0..<5 { entries.append(try await offline.enqueue(.like(noteID: index))) }
        // Tried once while the server was down: the try is counted in the entry's file.
        let head = folder.url.appendingPathComponent("notes/entries/00000000000000000001.entry")
        #expect(
            await waitUntil { (try? String(contentsOf: head, encoding: .utf8))?.contains(#""attempts":1"#) == true })
        await offline.close()
        let port = down.port
        down.release()

        let writes = IdempotentServer()
        let server = try LoopbackServer(port: port) { writes.handle($0) }
        defer { server.stop() }
        let online = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        let outcomes = await online.next(5)
        #expect(outcomes.map(\.id) == entries.map(\.id))
        #expect(outcomes.allSatisfy { $0.kind == .delivered })
        // The first was tried while the server was down; the others waited behind it.
        #expect((outcomes.first?.attempts ?? 0) >= 2)
        #expect(outcomes.dropFirst().map(\.attempts) == [1, 1, 1, 1])
        #expect(writes.writes.map(\.key) == entries.map(\.idempotencyKey))
        await online.close()

        // Not acknowledged: the next launch delivers them again, and sends nothing.
        let later = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url)
        #expect(await later.next(5).map(\.id) == entries.map(\.id))
        #expect(writes.writes.count == 5)
        await later.close()
    }

    @Test("an entry whose outcome was stored before a crash removed it is finished: never sent again")
    func finishedBeforeCrash() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let queue = folder.url.appendingPathComponent("notes")
        let first = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url)
        let entry = try await first.enqueue(.like(noteID: 7))
        let saved = try Data(contentsOf: queue.appendingPathComponent("entries/00000000000000000001.entry"))
        #expect(await first.next(1).first?.kind == .delivered)
        await first.close()
        // The state a crash between "outcome stored" and "entry removed" leaves.
        try saved.write(to: queue.appendingPathComponent("entries/00000000000000000001.entry"))
        let second = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url)
        #expect(second.waiting.entries == 0)
        #expect(await second.next(1).map(\.id) == [entry.id])
        _ = try await second.enqueue(.like(noteID: 8))
        #expect(await second.next(2).count == 2)
        #expect(writes.writes.map(\.path) == ["/notes/7/likes", "/notes/8/likes"])
        #expect(
            !FileManager.default.fileExists(
                atPath: queue.appendingPathComponent("entries/00000000000000000001.entry").path))
        await second.close()
    }

    @Test("a stored entry that no longer decodes ends as unreadable, and the queue goes on")
    func unreadable() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let entries = folder.url.appendingPathComponent("notes/entries")
        try FileManager.default.createDirectory(at: entries, withIntermediateDirectories: true)
        try Data(#"{"id":"00000000-0000-0000-0000-000000000001","target":{"renamed":{}}}"#.utf8)
            .write(to: entries.appendingPathComponent("00000000000000000001.entry"))
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: quickOptions())
        _ = try await outbox.enqueue(.like(noteID: 1))
        let outcomes = await outbox.next(2)
        #expect(outcomes.map(\.kind) == [.unreadable, .delivered])
        #expect(outcomes.first?.target == nil)
        #expect(await outbox.deadLetters().map(\.kind) == [.unreadable])
        await outbox.close()
    }

    @Test("a token from the interceptor signs every try and is never written, in any encoding")
    func secretsNeverWritten() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let token = "Zq9+Outbox/Token=Aa"
        let writes = IdempotentServer { request, tries in
            request.header("Authorization") == "Bearer \(token)" && tries > 1
                ? nil : ServerReply(status: 503, body: Data("echo: \(request.header("Authorization") ?? "")".utf8))
        }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        let signing = Adapter { request, _ in
            var request = request
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            return request
        }
        let outbox = try notesProvider(server.baseURL, interceptor: Interceptor(adapters: [signing]))
            .outbox(named: "notes", in: folder.url, options: quickOptions())
        _ = try await outbox.enqueue(.create(text: "hello"))
        #expect(await outbox.next(1).first?.kind == .delivered)
        let forms = [
            token, token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            Data(token.utf8).base64EncodedString(), token.replacingOccurrences(of: "/", with: "\\/"),
        ]
        for file in folder.contents() {
            let text = String(decoding: file, as: UTF8.self)
            #expect(!forms.contains { text.contains($0) })
        }
        await outbox.close()
    }

    @Test("a token an adapter puts in the URL's query never reaches a stored failure's text")
    func secretsInStoredFailures() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let token = "Zq7+Query/Token=Bb"
        let down = try ClosedPort()
        defer { down.release() }
        let signing = Adapter { request, _ in
            var request = request
            var parts = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
            parts.queryItems = [URLQueryItem(name: "access_token", value: token)]
            request.url = parts.url
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            return request
        }
        var options = quickOptions()
        options.maximumAttempts = 2
        let outbox = try notesProvider(down.baseURL, interceptor: Interceptor(adapters: [signing]))
            .outbox(named: "notes", in: folder.url, options: options)
        try await outbox.enqueue(.create(text: "hello"))
        let outcome = try #require(await outbox.next(1).first)
        #expect(outcome.kind == .attemptsExhausted)
        #expect(outcome.failure != nil)
        let forms = [
            token, token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            token.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!,
            Data(token.utf8).base64EncodedString(), token.replacingOccurrences(of: "/", with: "\\/"),
        ]
        for file in folder.contents() {
            let text = String(decoding: file, as: UTF8.self)
            #expect(!forms.contains { text.contains($0) }, "\(text.prefix(300))")
        }
        await outbox.close()
    }

    @Test("expiry and the attempt limit end an entry, reported with the last failure")
    func limits() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { _, _ in ServerReply(status: 503) }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumAttempts = 3
        let outbox = try notesProvider(server.baseURL).outbox(named: "notes", in: folder.url, options: options)
        let entry = try await outbox.enqueue(.like(noteID: 1))
        let outcome = try #require(await outbox.next(1).first)
        #expect(outcome.kind == .attemptsExhausted)
        #expect(outcome.statusCode == 503)
        #expect(writes.tries(of: entry.idempotencyKey) == 3)
        await outbox.close()

        let clock = TestClock()
        var short = quickOptions()
        short.lifetime = 60
        let expiring = try notesProvider(server.baseURL, options: ProviderOptions(clock: clock))
            .outbox(named: "expiring", in: folder.url, options: short)
        _ = try await expiring.enqueue(.like(noteID: 2))
        try await clock.waitForSleepers(1)
        clock.advance(by: 61)
        let expired = try #require(await expiring.next(1).first)
        #expect(expired.kind == .expired)
        await expiring.close()
    }
}
