import Courier
import CourierTesting
import Foundation
import NotesAPI
import NotesServer
import Testing

/// The consumer's view: only the public API of Courier and CourierTesting.
@Suite("NotesAPI")
struct NotesAPITests {
    @Test("a request's hooks run in the documented order")
    func hookOrder() async throws {
        let server = try NotesServer()
        defer { server.stop() }
        let recorder = CallRecorder()
        let provider = NotesService.makeProvider(
            baseURL: server.baseURL, plugins: [RecordingPlugin("Logger", recorder: recorder)],
            interceptor: RecordingInterceptor(recorder: recorder))

        let notes = try await provider.request(.list(page: 1), as: [Note].self)

        #expect(notes == [Note(id: 11, text: "Buy milk"), Note(id: 12, text: "Call Ann")])
        #expect(
            recorder.events == [
                .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1),
                .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
            ])
    }

    @Test("a 503 is retried and its hooks show both attempts")
    func retried() async throws {
        let server = try NotesServer()
        defer { server.stop() }
        let recorder = CallRecorder()
        let provider = NotesService.makeProvider(
            baseURL: server.baseURL, plugins: [RecordingPlugin("Logger", recorder: recorder)],
            interceptor: NotesService.retryUnavailable)

        let status = try await provider.request(.status).mapString(atKeyPath: "status")

        #expect(status == "ok")
        #expect(server.requestCount == 2)
        #expect(
            recorder.events == [
                .prepare("Logger"), .willSend("Logger", attempt: 1),
                .prepare("Logger"), .willSend("Logger", attempt: 2),
                .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
            ])
    }

    @Test("creating a note sends JSON and decodes the answer")
    func create() async throws {
        let transport = ScriptedTransport()
        transport.enqueue([.json(201, #"{"id":7,"text":"hi"}"#)], for: NotesAPI.create(NewNote(text: "hi")))
        let provider = Provider<NotesAPI>(transport: transport)

        let note = try await provider.request(.create(NewNote(text: "hi")), as: Note.self)

        #expect(note == Note(id: 7, text: "hi"))
        #expect(transport.requests.first?.httpBody == Data(#"{"text":"hi"}"#.utf8))
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("an unknown path fails validation with the 404 response")
    func notFound() async throws {
        let transport = ScriptedTransport(fallback: .json(404, #"{"error":"not found"}"#))
        let provider = Provider<NotesAPI>(transport: transport)
        await #expect {
            try await provider.request(.status)
        } throws: {
            ($0 as? CourierError)?.response?.statusCode == 404
        }
    }
}
