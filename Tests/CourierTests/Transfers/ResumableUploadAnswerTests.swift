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
}
