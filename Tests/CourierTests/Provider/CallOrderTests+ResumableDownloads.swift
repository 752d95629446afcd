import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The call order of a resumable download: one request; a cut piece fails its attempt like any
/// lost connection, and the retry's attempt asks for the rest (the engine once per piece, recorded
/// by a `RecordingTransport` around it).
@Suite("Call order of a resumable download")
struct ResumableDownloadCallOrderTests {
    let recorder = CallRecorder()

    func provider(retrying: Bool) -> Provider<OrderTarget> {
        Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in retrying ? .retry : .doNotRetry }))
    }

    func download(_ provider: Provider<OrderTarget>, _ server: LoopbackServer) async throws -> [HookEvent] {
        let file = try Scratch.folder().appendingPathComponent("ordered.bin")
        let result: Result<Response, CourierError>
        do {
            result = .success(try await provider.download(OrderTarget(baseURL: server.baseURL), resumingInto: file))
        } catch {
            result = .failure(error)
        }
        recorder.record(.completion(.init(result)))
        return recorder.events
    }

    @Test("a whole download: the sequence of one request, the engine once")
    func whole() async throws {
        let resource = RangedResource(Data(repeating: 3, count: 100_000))
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        let events = try await download(provider(retrying: false), server)
        #expect(events == [HookEvent].attempt(1, .success(200)) + .finish(.success(200)))
    }

    @Test("a cut piece fails its attempt; the retry's attempt resumes and succeeds as a 200")
    func cutThenResumed() async throws {
        let resource = RangedResource(Data(repeating: 3, count: 100_000))
        resource.cutNext(after: 40_000)
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        let events = try await download(provider(retrying: true), server)

        let lost = HookEvent.Outcome.failure(.transport)
        #expect(
            events == [HookEvent].attempt(1, lost) + [.retry(attempt: 1, lost)] + .attempt(2, .success(200))
                + .finish(.success(200)))
        #expect(resource.rangesAsked == [nil, "bytes=40000-"])
    }
}
