import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// Resumable uploads on this engine beyond the draft's basic flow (the core package's tests
    /// run the same on URLSession): tus, the draft's `max-append-size`, a replayable stream,
    /// cancelling.
    @Suite("Resumable uploads on AsyncHTTPClient: tus, append limits, streams, cancelling")
    struct ResumableUploadProtocolTests {
        private static let provider = Provider<Echo>(
            transport: AsyncHTTPClientTransport(),
            interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none))

        private static func folder() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ahc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        private static func upload(_ size: Int) throws -> (file: URL, data: Data, states: URL) {
            let folder = try folder()
            let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ $0 >> 10) })
            let file = folder.appendingPathComponent("upload.bin")
            try data.write(to: file)
            return (file, data, folder.appendingPathComponent("states"))
        }

        @Test("tus and the draft with max-append-size: cut mid-append, resumed on retries, the exact bytes once")
        func cutAndResumed() async throws {
            for speaking in [ResumableUploadProtocol.tus, .ietfDraft] {
                let uploads = ResumableUploadServer(speaking: speaking)
                uploads.maximumAppendSize = speaking == .ietfDraft ? 700_000 : nil
                let server = try LoopbackServer { uploads.reply(to: $0) }
                defer { server.stop() }
                let (file, data, states) = try Self.upload(2 << 20)
                defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
                for cut in [500_000, 100_000] { uploads.cutNextAppend(after: cut) }
                var target = Echo(server, "/files")
                target.method = .post
                let response = try await Self.provider.upload(
                    target, resumingFrom: file, speaking: speaking, stateDirectory: states)
                #expect(response.statusCode == (speaking == .tus ? 204 : 200), "\(speaking)")
                #expect(uploads.completed == [data], "\(speaking)")
                #expect(uploads.bytesReceived == Int64(data.count), "\(speaking)")
                let appends = server.requests.filter { $0.method == "PATCH" }
                #expect(appends.allSatisfy { $0.body.count <= (speaking == .tus ? 2 << 20 : 700_000) })
            }
        }

        @Test("a replayable stream resumes; cancelling deletes the upload on the server")
        func streamAndCancel() async throws {
            let uploads = ResumableUploadServer()
            let server = try LoopbackServer { uploads.reply(to: $0) }
            defer { server.stop() }
            let (file, data, states) = try Self.upload(900_000)
            defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
            var target = Echo(server, "/files")
            target.method = .post
            let body = UploadStream(length: UInt64(data.count)) { InputStream(data: data) }
            uploads.cutNextAppend(after: 400_000)
            _ = try? await Provider<Echo>(transport: AsyncHTTPClientTransport()).upload(
                target, resumingFrom: body, identifiedBy: "stream-1", stateDirectory: states)
            #expect(uploads.openUploads == 1)
            let deleted = try await Self.provider.cancelUpload(target, identifiedBy: "stream-1", stateDirectory: states)
            #expect(deleted?.statusCode == 204)
            #expect(uploads.openUploads == 0)

            uploads.cutNextAppend(after: 123_456)
            _ = try await Self.provider.upload(
                target, resumingFrom: body, identifiedBy: "stream-1", stateDirectory: states)
            #expect(uploads.completed == [data])
            #expect(server.requests.last?.header("Upload-Offset") == "123456")
        }
    }
}
