import Courier
import CourierTesting
import Foundation
import Testing

/// The call order of an outbox entry: each try is one request of the pipeline (steps 1–10, the
/// interceptor's retries within it), with no completion; the entry's outcome is delivered once,
/// after the try that ended it.
@Suite("Call order of an outbox entry", .timeLimit(.minutes(1)))
struct OutboxCallOrderTests {
    @Test("refused (503), then delivered: two tries, each the whole sequence; one outcome")
    func refusedThenDelivered() async throws {
        let folder = OutboxFolder()
        defer { folder.remove() }
        let recorder = CallRecorder()
        let answers = Locked([503, 201])
        let provider = Provider<NotesWrite>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    recorder.record(.send)
                    let status = answers.withLock { $0.isEmpty ? 201 : $0.removeFirst() }
                    return .networkResponse(status, Data("{}".utf8))
                })
            },
            stubClosure: Provider.immediatelyStub,
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .doNotRetry }))
        let outbox = try provider.outbox(named: "notes", in: folder.url, options: quickOptions())
        _ = try await outbox.enqueue(.like(noteID: 1))
        let outcome = try #require(await outbox.next(1).first)
        recorder.record(.completion(.success(outcome.statusCode ?? 0)))

        let refused = HookEvent.Outcome.failure(.validation)
        let delivered = HookEvent.Outcome.success(201)
        // The wait's length is random (jitter): compared by its attempt only.
        let events = recorder.events.map { event -> HookEvent in
            guard case .outbox(let name, .waiting(let attempt, _)) = event else { return event }
            return .outbox(name, .waiting(attempt: attempt, seconds: 0))
        }
        let firstTry: [HookEvent] =
            [.outbox("P1", .enqueued)] + .attempt(1, refused)
            + [
                .retry(attempt: 1, refused), .didReceive("P1", refused), .process("P1", refused),
                .outbox("P1", .waiting(attempt: 1, seconds: 0)),
            ]
        let secondTry: [HookEvent] =
            .attempt(1, delivered)
            + [.didReceive("P1", delivered), .process("P1", delivered), .outbox("P1", .ended(.delivered))]
        #expect(events == firstTry + secondTry + [.completion(delivered)])
        await outbox.close()
    }
}
