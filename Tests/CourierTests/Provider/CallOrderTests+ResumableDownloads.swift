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

/// The call order of a resumable upload: one request whose attempt sends the draft's requests
/// (`OPTIONS`, the creation, `PATCH`; after a cut, `HEAD` and `PATCH`) through the engine.
@Suite("Call order of a resumable upload")
struct ResumableUploadCallOrderTests {
    let recorder = CallRecorder()

    @Test("a cut append fails its attempt; the retry's attempt asks for the offset and completes")
    func cutThenResumed() async throws {
        let uploads = ResumableUploadServer()
        uploads.cutNextAppend(after: 10_000)
        let server = try LoopbackServer { uploads.reply(to: $0) }
        defer { server.stop() }
        let folder = try Scratch.folder()
        let (file, _) = try Scratch.file(in: folder, name: "ordered.bin", size: 50_000)
        let provider = Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))
        let result: Result<Response, CourierError>
        do {
            let target = OrderTarget(baseURL: server.baseURL, method: .post)
            result = .success(
                try await provider.upload(
                    target, resumingFrom: file, stateDirectory: folder.appendingPathComponent("s")))
        } catch {
            result = .failure(error)
        }
        recorder.record(.completion(.init(result)))

        let lost = HookEvent.Outcome.failure(.transport)
        let first = [HookEvent].attempt(1, lost).flatMap { $0 == .send ? [HookEvent.send, .send, .send] : [$0] }
        let second = [HookEvent].attempt(2, .success(200)).flatMap { $0 == .send ? [HookEvent.send, .send] : [$0] }
        #expect(recorder.events == first + [.retry(attempt: 1, lost)] + second + .finish(.success(200)))
        #expect(server.requests.map(\.method) == ["OPTIONS", "POST", "PATCH", "HEAD", "PATCH"])
    }

    @Test("tus: each request of the attempt is a send; cancelling is one request of one attempt")
    func tusAndCancel() async throws {
        let uploads = ResumableUploadServer(speaking: .tus)
        uploads.cutNextAppend(after: 5_000)
        let server = try LoopbackServer { uploads.reply(to: $0) }
        defer { server.stop() }
        let folder = try Scratch.folder()
        let (file, _) = try Scratch.file(in: folder, name: "ordered.bin", size: 20_000)
        let states = folder.appendingPathComponent("s")
        let provider = Provider<OrderTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .doNotRetry }))
        let target = OrderTarget(baseURL: server.baseURL, method: .post)
        let failed = await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: file, speaking: .tus, stateDirectory: states)
        }
        recorder.record(.completion(.init(.failure(failed!))))
        let lost = HookEvent.Outcome.failure(.transport)
        let upload = [HookEvent].attempt(1, lost).flatMap { $0 == .send ? [HookEvent.send, .send] : [$0] }
        #expect(recorder.events == upload + [.retry(attempt: 1, lost)] + .finish(lost))

        recorder.reset()
        let answer = try await provider.cancelUpload(target, of: file, stateDirectory: states)
        recorder.record(.completion(.init(.success(answer!))))
        #expect(recorder.events == [HookEvent].attempt(1, .success(204)) + .finish(.success(204)))
        #expect(server.requests.map(\.method) == ["POST", "PATCH", "DELETE"])
    }
}
