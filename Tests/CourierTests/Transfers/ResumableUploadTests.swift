import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable uploads (the IETF draft, interop version 6) on URLSession against a loopback server
/// that speaks it (``ResumableUploadServer``): cut appends, retries, a later call, a server that
/// forgot its uploads, one that does not take resumable uploads, a changed file.
@Suite("Resumable uploads")
struct ResumableUploadTests {
    private typealias Setup = UploadServerSetup

    private static func retries(_ limit: Int) -> RetryPolicy {
        RetryPolicy(retryLimit: limit, exponentialBackoffScale: 0.001, jitter: .none)
    }

    @Test("a POST whose append is cut three times resumes on each retry: the server has the exact bytes, once")
    func cutAppendsWithRetries() async throws {
        let setup = try Setup(size: 4 << 20)
        defer { setup.server.stop() }
        for cut in [100_000, 1_000_000, 2_500_000] { setup.uploads.cutNextAppend(after: cut) }
        let provider = Provider<TransferTarget>(interceptor: Self.retries(4))
        let progress = ProgressLog()
        let response = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states) {
            progress.add($0)
        }

        #expect(response.statusCode == 200)
        #expect(try response.mapString() == String(4 << 20))
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.uploads.bytesReceived == Int64(4 << 20))
        #expect(
            setup.methods == [
                "OPTIONS /files", "POST /files", "PATCH /uploads/1", "HEAD /uploads/1", "PATCH /uploads/1",
                "HEAD /uploads/1", "PATCH /uploads/1", "HEAD /uploads/1", "PATCH /uploads/1",
            ])
        #expect(progress.isMonotonicEndingAtOne)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.states.path).isEmpty)
    }

    @Test("an append answered with a 503 keeps the upload: the retry asks for the offset and sends the rest")
    func serverErrorKeepsTheUpload() async throws {
        let setup = try Setup(size: 600_000)
        defer { setup.server.stop() }
        setup.uploads.failNextAppend(after: 250_000, status: 503)
        let provider = Provider<TransferTarget>(interceptor: Self.retries(2))
        let response = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(try response.mapString() == "600000")
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.methods.suffix(3) == ["PATCH /uploads/1", "HEAD /uploads/1", "PATCH /uploads/1"])
        #expect(setup.server.requests.last?.header("Upload-Offset") == "250000")
    }

    @Test("an upload resource on another origin gets no credentials, as a redirect to it would not")
    func crossOriginResource() async throws {
        let setup = try Setup(size: 200_000)
        defer { setup.server.stop() }
        let uploads = setup.uploads
        let port = setup.server.port
        // The target's server creates the upload on the other server and names it there.
        let front = try LoopbackServer { request in
            if request.method == "OPTIONS" { return ServerReply(status: 204, headers: ["Upload-Limit": "min-size=0"]) }
            _ = uploads.reply(to: request)
            return ServerReply(
                status: 201, headers: ["Location": "http://127.0.0.1:\(port)/uploads/1", "Upload-Offset": "0"])
        }
        defer { front.stop() }
        var target = setup.target
        target.baseURL = front.baseURL
        target.headers = ["Authorization": "Bearer secret", "X-API-Key": "key"]
        _ = try await Provider<TransferTarget>().upload(target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(front.requests.last?.header("Authorization") == "Bearer secret")
        let append = try #require(setup.server.requests.last)
        #expect(append.method == "PATCH")
        #expect(append.header("Authorization") == nil)
        #expect(append.header("X-API-Key") == nil)
    }

    @Test("a file larger than the server's max-size is refused before any byte of it is sent")
    func tooLarge() async throws {
        let setup = try Setup(size: 100_000)
        defer { setup.server.stop() }
        setup.uploads.maximumSize = 99_999
        let error = await #expect(throws: CourierError.self) {
            try await Provider<TransferTarget>().upload(
                setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        }
        #expect(error?.underlyingError as? TransferError == .uploadTooLarge(limit: 99_999))
        #expect(setup.methods == ["OPTIONS /files"])
    }

    @Test("a failed upload is resumed by the next call from the server's offset")
    func resumesAcrossCalls() async throws {
        let setup = try Setup(size: 1 << 20)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 300_000)
        let provider = Provider<TransferTarget>()
        let error = await #expect(throws: CourierError.self) {
            try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .connectionLost)
        #expect(setup.uploads.openUploads == 1)

        let response = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(try response.mapString() == String(1 << 20))
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.methods.suffix(2) == ["HEAD /uploads/1", "PATCH /uploads/1"])
        let append = try #require(setup.server.requests.last)
        #expect(append.header("Upload-Offset") == "300000")
        #expect(append.body.count == (1 << 20) - 300_000)
    }

    @Test("a server that forgot the upload (404 to HEAD) gets a new upload, from the first byte")
    func forgottenUploadStartsOver() async throws {
        let setup = try Setup(size: 500_000)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 200_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        setup.uploads.forgetUploads()
        _ = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.methods.suffix(4) == ["HEAD /uploads/1", "OPTIONS /files", "POST /files", "PATCH /uploads/2"])
    }

    @Test("a server without resumable uploads gets the whole file in one POST, never sent twice")
    func plainFallback() async throws {
        let setup = try Setup(size: 300_000)
        defer { setup.server.stop() }
        setup.uploads.takesResumableUploads = false
        let provider = Provider<TransferTarget>(interceptor: Self.retries(3))
        let response = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(try response.mapString() == "300000")
        #expect(setup.methods == ["OPTIONS /files", "POST /files"])
        #expect(setup.server.requests.last?.header("Upload-Complete") == nil)

        let closing = try LoopbackServer { request in
            request.method == "OPTIONS" ? ServerReply(status: 405) : .closeConnection
        }
        defer { closing.stop() }
        var target = setup.target
        target.baseURL = closing.baseURL
        await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: setup.file, stateDirectory: setup.states)
        }
        #expect(closing.requests.map(\.method) == ["OPTIONS", "POST"])
    }

    @Test(
        "a file that changed since the upload began is uploaded again from its first byte; the old upload is cancelled")
    func changedFile() async throws {
        let setup = try Setup(size: 400_000)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 100_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        let changed = Data(repeating: 9, count: 123_456)
        try changed.write(to: setup.file)
        _ = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [changed])
        // The old upload is cancelled, not left on the server, and its state is not left behind.
        #expect(
            setup.methods.suffix(4) == ["DELETE /uploads/1", "OPTIONS /files", "POST /files", "PATCH /uploads/2"])
        #expect(setup.uploads.openUploads == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.states.path).isEmpty)
    }
}
