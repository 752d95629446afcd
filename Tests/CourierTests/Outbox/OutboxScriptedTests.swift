import Courier
import CourierTesting
import Foundation
import Testing

/// An outbox driven by the test doubles an app's tests use: a script, and a recording replayed
/// with faults.
@Suite("Outbox on test doubles", .timeLimit(.minutes(1)))
struct OutboxScriptedTests {
    @Test("a script: offline for 3 tries, then 201: delivered on the 4th, with one key on every try")
    func scripted() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let transport = ScriptedTransport()
        let offline = ScriptedReply.failure(URLError(.notConnectedToInternet))
        transport.enqueue(
            Array(repeating: offline, count: 3) + [.json(201, #"{"id":1}"#)], for: NotesWrite.like(noteID: 7))
        let outbox = try Provider<NotesWrite>(transport: transport).outbox(
            named: "notes", in: folder.url, options: quickOptions())
        let entry = try await outbox.enqueue(.like(noteID: 7))
        let outcome = try #require(await outbox.next(1).first)
        #expect(outcome.kind == .delivered)
        #expect(outcome.attempts == 4)
        #expect(outcome.body == Data(#"{"id":1}"#.utf8))
        let keys = transport.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
        #expect(keys == Array(repeating: entry.idempotencyKey, count: 4))
        await outbox.close()
    }

    @Test("a recording replayed with faults: two lost connections, then the recorded 201")
    func replayed() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let har = folder.url.appendingPathComponent("notes.har")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let server = try LoopbackServer { _ in ServerReply(status: 201, body: Data(#"{"id":7}"#.utf8)) }
        let base = server.baseURL
        let recording = Provider<NotesWrite>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: base) },
            transport: HARRecorder(recording: URLSessionTransport(), to: har))
        #expect(try await recording.request(.like(noteID: 7)).statusCode == 201)
        server.stop()

        let replayer = try HARReplayer(file: har, order: .firstMatch)
        replayer.inject(.connectionLost, atExchange: 1)
        replayer.inject(.connectionLost, atExchange: 2)
        let replaying = Provider<NotesWrite>(
            endpointClosure: { Provider.defaultEndpointMapping(for: $0).replacing(origin: base) },
            transport: replayer)
        let outbox = try replaying.outbox(named: "notes", in: folder.url, options: quickOptions())
        _ = try await outbox.enqueue(.like(noteID: 7))
        let outcome = try #require(await outbox.next(1).first)
        #expect(outcome.kind == .delivered)
        #expect(outcome.attempts == 3)
        #expect(outcome.body == Data(#"{"id":7}"#.utf8))
        await outbox.close()
    }
}
