import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the answers of a resumable upload's requests do to the upload: only a success or a
/// resource that is gone ends it; any other status is the attempt's answer, its state kept.
@Suite("Resumable upload answers")
struct ResumableUploadAnswerTests {
    /// Retries any failed attempt once, as a refresh after a 401 or a back-off after a 429 would.
    private static let retryOnce = Retrier { _, _, context in context.attempt == 1 ? .retry : .doNotRetry }

    @Test(
        "an append answered 401, 408 or 429 keeps the upload: the retry resumes the same resource from its offset",
        arguments: [401, 408, 429])
    func clientErrorKeepsTheUpload(status: Int) async throws {
        let setup = try UploadServerSetup(size: 3_000)
        defer { setup.server.stop() }
        setup.uploads.failNextAppend(after: 1_000, status: status)
        let provider = Provider<TransferTarget>(interceptor: Self.retryOnce)

        let response = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)

        #expect(try response.mapString() == "3000")
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.uploads.bytesReceived == 3_000)
        #expect(setup.uploads.openUploads == 0)
        #expect(
            setup.methods == [
                "OPTIONS /files", "POST /files", "PATCH /uploads/1", "HEAD /uploads/1", "PATCH /uploads/1",
            ])
        #expect(setup.server.requests.last?.header("Upload-Offset") == "1000")
        #expect(setup.stateFiles.filter { $0.hasSuffix(".json") }.isEmpty)
    }

    @Test("an append answered 401 without a retry leaves the state, and the next call resumes")
    func clientErrorLeavesStateForTheNextCall() async throws {
        let setup = try UploadServerSetup(size: 3_000)
        defer { setup.server.stop() }
        setup.uploads.failNextAppend(after: 1_000, status: 401)
        let provider = Provider<TransferTarget>()
        let error = await #expect(throws: CourierError.self) {
            try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        }
        #expect(error?.response?.statusCode == 401)
        #expect(setup.stateFiles.contains { $0.hasSuffix(".json") })

        _ = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.uploads.bytesReceived == 3_000)
        #expect(setup.methods.suffix(2) == ["HEAD /uploads/1", "PATCH /uploads/1"])
    }

    @Test("a tus append answered 429 keeps the upload; the retry resumes it")
    func tusClientErrorKeepsTheUpload() async throws {
        let setup = try UploadServerSetup(size: 3_000, speaking: .tus)
        defer { setup.server.stop() }
        setup.uploads.failNextAppend(after: 1_000, status: 429)
        let provider = Provider<TransferTarget>(interceptor: Self.retryOnce)
        _ = try await provider.upload(
            setup.target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.uploads.bytesReceived == 3_000)
        #expect(setup.methods.filter { $0.hasPrefix("POST") }.count == 1)
    }

    @Test("a creation redirected to another server: its relative Location is that server's, and the appends go there")
    func redirectedCreation() async throws {
        let setup = try UploadServerSetup(size: 3_000)
        defer { setup.server.stop() }
        let backPort = setup.server.port
        // The front answers OPTIONS itself and sends every other request on, with a 307.
        let front = try LoopbackServer { request in
            if request.method == "OPTIONS" { return ServerReply(status: 204, headers: ["Upload-Limit": "min-size=0"]) }
            return ServerReply(status: 307, headers: ["Location": "http://127.0.0.1:\(backPort)\(request.path)"])
        }
        defer { front.stop() }
        var target = setup.target
        target.baseURL = front.baseURL

        _ = try await Provider<TransferTarget>().upload(target, resumingFrom: setup.file, stateDirectory: setup.states)

        #expect(setup.uploads.completed == [setup.data])
        #expect(front.requests.map(\.method) == ["OPTIONS", "POST"])
        #expect(setup.methods == ["POST /files", "PATCH /uploads/1"])
    }

    @Test("a creation whose answer is lost is not retried (no engine shows a 104): no second upload resource")
    func lostCreationAnswerIsNotRetried() async throws {
        let setup = try UploadServerSetup(size: 3_000)
        defer { setup.server.stop() }
        let uploads = setup.uploads
        // The creation is made, then the connection closes before its answer.
        let front = try LoopbackServer { request in
            let reply = uploads.reply(to: request)
            return request.method == "POST" ? .closeConnection : reply
        }
        defer { front.stop() }
        var target = setup.target
        target.baseURL = front.baseURL
        let provider = Provider<TransferTarget>(
            interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none))

        let error = await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: setup.file, stateDirectory: setup.states)
        }

        #expect((error?.underlyingError as? TransportFailure)?.kind == .connectionLost)
        #expect(front.requests.filter { $0.method == "POST" }.count == 1)
        #expect(uploads.openUploads == 1)
    }

    @Test("a lost answer to an append is retried: the upload resource exists, the retry resumes it")
    func lostAppendAnswerIsRetried() async throws {
        let setup = try UploadServerSetup(size: 3_000)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 1_000)
        let provider = Provider<TransferTarget>(
            interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none))
        _ = try await provider.upload(setup.target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.methods.filter { $0.hasPrefix("POST") }.count == 1)
    }
}
