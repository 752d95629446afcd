import Courier
import CourierTesting
import Foundation
import Testing

/// A write whose target bounds each attempt at 1 s.
struct SlowWrite: TargetType, Codable, Equatable {
    var id = 1
    var baseURL: URL { URL(string: "http://127.0.0.1:9")! }
    var path: String { "/slow/\(id)" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var timeoutInterval: TimeInterval? { 1 }
}

/// A photo post whose target bounds each attempt at 1 s.
struct SlowPhoto: TargetType, Codable, Equatable {
    let file: URL
    var baseURL: URL { URL(string: "http://127.0.0.1:9")! }
    var path: String { "/files" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .uploadFile(file) }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
    var timeoutInterval: TimeInterval? { 1 }
}

/// The hostile review of the outbox's bounds (2026-11-29): its probes, kept.
@Suite("Outbox bounds under review", .timeLimit(.minutes(2)))
struct OutboxBoundsReviewTests {
    @Test("a 2xx head, then a byte every 0.4 s: cut at the target's 1 s limit, delivered; the queue goes on")
    func trickle() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let server = try LoopbackServer { request in
            guard request.path == "/slow/1" else { return ServerReply(status: 201) }
            var steps: [ServerReply.RawStep] = [
                .send(Data("HTTP/1.1 201 Created\r\nContent-Length: 1000\r\n\r\n".utf8))
            ]
            for _ in 0..<40 { steps += [.send(Data("x".utf8)), .pause(0.4)] }
            return .raw(steps)
        }
        defer { server.stop() }
        let provider = Provider<SlowWrite>(endpointClosure: {
            Provider.defaultEndpointMapping(for: $0).replacing(origin: server.baseURL)
        })
        var options = quickOptions()
        options.maximumStoredBody = 20
        options.maximumAttempts = 1
        let outbox = try provider.outbox(named: "slow", in: folder.url, options: options)
        let started = ContinuousClock.now
        _ = try await outbox.enqueue(SlowWrite(id: 1))
        _ = try await outbox.enqueue(SlowWrite(id: 2))
        let outcomes = await outbox.next(2, timeout: 30)
        #expect(outcomes.map(\.kind) == [.delivered, .delivered])
        #expect(outcomes.first.map { $0.isBodyTruncated && $0.attempts == 1 && $0.body.count < 20 } == true)
        #expect(started.duration(to: .now) < .seconds(6))
        await outbox.close()
    }

    @Test("each request of a photo post's resumable upload has its own time limit, as provider.upload gives it")
    func uploadRequestsEachBounded() async throws {
        let setup = try UploadServerSetup(size: 300_000)
        setup.server.stop()
        let uploads = setup.uploads
        uploads.maximumAppendSize = 100_000
        let server = try LoopbackServer { request in
            Thread.sleep(forTimeInterval: 0.6)
            return uploads.reply(to: request)
        }
        defer { server.stop() }
        let provider = Provider<SlowPhoto>(endpointClosure: {
            Provider.defaultEndpointMapping(for: $0).replacing(origin: server.baseURL)
        })
        let folder = OutboxFolder()
        defer { folder.remove() }
        var options = quickOptions()
        options.maximumAttempts = 2
        let outbox = try provider.outbox(named: "photos", in: folder.url, options: options)
        _ = try await outbox.enqueue(SlowPhoto(file: setup.file))
        let outcome = try #require(await outbox.next(1, timeout: 60).first)
        #expect(outcome.kind == .delivered)
        #expect(outcome.attempts == 1)
        await outbox.close()
    }

    @Test("acknowledging an outcome let go past the bound, or acknowledged already, is no error")
    func acknowledgeLetGo() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumUnacknowledgedOutcomes = 1
        let outbox = try notesProvider(server.baseURL).outbox(named: "ack", in: folder.url, options: options)
        _ = try await outbox.enqueue(.like(noteID: 1))
        let first = try #require(await outbox.next(1).first)
        _ = try await outbox.enqueue(.like(noteID: 2))
        #expect(await waitUntil { writes.writes.count == 2 && outbox.waiting.entries == 0 })
        try await outbox.acknowledge(first)
        let second = try #require(await outbox.next(1).first)
        try await outbox.acknowledge(second)
        try await outbox.acknowledge(second)
        #expect(await outbox.next(1, timeout: 0.3).isEmpty)
        await outbox.close()
    }

    @Test("a failure whose outcome is not stored yet is not on the list; once stored it counts once, never twice")
    func deadLetterBeforeItsOutcome() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer { _, _ in ServerReply(status: 422) }
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumDeadLetters = 1
        let outbox = try notesProvider(server.baseURL).outbox(named: "drift", in: folder.url, options: options)
        // The outcome's name is taken by a folder: storing the outcome fails until it goes.
        let blocker = folder.url.appendingPathComponent("drift/outcomes/00000000000000000001.outcome")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("keep"))
        _ = try await outbox.enqueue(.like(noteID: 1))
        #expect(await waitUntil { folder.files(under: "drift/dead").count == 1 })
        #expect(await outbox.deadLetters().isEmpty)
        try FileManager.default.removeItem(at: blocker)
        let failure = try #require(await outbox.next(1).first)
        #expect(await outbox.deadLetters().map(\.id) == [failure.id])
        await #expect(throws: OutboxError.deadLettersFull(limit: 1)) { try await outbox.enqueue(.like(noteID: 2)) }
        try await outbox.removeDeadLetter(failure)
        _ = try await outbox.enqueue(.like(noteID: 3))
        #expect(await outbox.next(2).count == 2)
        #expect(folder.files(under: "drift/dead").count == 1)
        await outbox.close()
    }

    @Test("a dead letter that cannot be read is listed as unreadable and can be removed: it never jams the queue")
    func unreadableDeadLetter() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumDeadLetters = 1
        let provider = notesProvider(server.baseURL)
        await (try provider.outbox(named: "jam", in: folder.url, options: options)).close()
        let unreadable = folder.url.appendingPathComponent("jam/dead/00000000000000000007.outcome")
        try FileManager.default.createDirectory(at: unreadable, withIntermediateDirectories: true)
        let outbox = try provider.outbox(named: "jam", in: folder.url, options: options)
        await #expect(throws: OutboxError.deadLettersFull(limit: 1)) { try await outbox.enqueue(.like(noteID: 1)) }
        let listed = await outbox.deadLetters()
        #expect(listed.map(\.kind) == [.unreadable])
        // Readable again, but not a record: removed as the unreadable one it was listed as.
        try FileManager.default.removeItem(at: unreadable)
        try Data("not a record".utf8).write(to: unreadable)
        try await outbox.removeDeadLetter(try #require(listed.first))
        _ = try await outbox.enqueue(.like(noteID: 1))
        #expect(await outbox.next(1).first?.kind == .delivered)
        await outbox.close()
    }

    @Test("limits below 1 count as 1")
    func limitsBelowOne() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let writes = IdempotentServer()
        let server = try LoopbackServer { writes.handle($0) }
        defer { server.stop() }
        var options = quickOptions()
        options.maximumDeadLetters = 0
        options.maximumUnacknowledgedOutcomes = -5
        let outbox = try notesProvider(server.baseURL).outbox(named: "edges", in: folder.url, options: options)
        for id in 0..<3 { _ = try await outbox.enqueue(.like(noteID: id)) }
        #expect(await waitUntil { outbox.waiting.entries == 0 && folder.files(under: "edges/outcomes").count == 1 })
        #expect(await outbox.next(1).count == 1)
        await outbox.close()
    }

    @Test("a head, then a body that stalls: the status is the answer (201 delivered, 422 rejected), sent once, cut")
    func stallAfterHead() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let hits = Locked<[String]>([])
        let server = try LoopbackServer { request in
            hits.withLock { $0.append(request.path) }
            let status = request.path == "/slow/1" ? "201 Created" : "422 Unprocessable Content"
            return .raw([.send(Data("HTTP/1.1 \(status)\r\nContent-Length: 100\r\n\r\n0123456789".utf8)), .stall])
        }
        defer { server.stop() }
        let provider = Provider<SlowWrite>(endpointClosure: {
            Provider.defaultEndpointMapping(for: $0).replacing(origin: server.baseURL)
        })
        var options = quickOptions()
        options.maximumAttempts = 3
        let outbox = try provider.outbox(named: "stall", in: folder.url, options: options)
        _ = try await outbox.enqueue(SlowWrite(id: 1))
        _ = try await outbox.enqueue(SlowWrite(id: 2))
        let outcomes = await outbox.next(2, timeout: 30)
        #expect(outcomes.map(\.kind) == [.delivered, .rejected])
        #expect(outcomes.map(\.statusCode) == [201, 422])
        #expect(outcomes.allSatisfy { $0.body == Data("0123456789".utf8) && $0.isBodyTruncated && $0.attempts == 1 })
        #expect(hits.value == ["/slow/1", "/slow/2"])
        await outbox.close()
    }
}
