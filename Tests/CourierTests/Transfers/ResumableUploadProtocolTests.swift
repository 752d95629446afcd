import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Resumable uploads beyond the draft's basic flow: tus 1.0, the draft's `max-append-size`,
/// uploads from a replayable stream, and cancelling an upload (`DELETE`), on URLSession against
/// ``ResumableUploadServer``.
@Suite("Resumable uploads: tus, append limits, streams, cancelling")
struct ResumableUploadProtocolTests {
    private static func retries(_ limit: Int) -> RetryPolicy {
        RetryPolicy(retryLimit: limit, exponentialBackoffScale: 0.001, jitter: .none)
    }

    @Test("tus: an upload cut twice resumes on each retry from the server's offset; every request says tus 1.0.0")
    func tusCutsWithRetries() async throws {
        let setup = try UploadServerSetup(size: 2 << 20, speaking: .tus)
        defer { setup.server.stop() }
        for cut in [300_000, 700_000] { setup.uploads.cutNextAppend(after: cut) }
        let progress = ProgressLog()
        let response = try await Provider<TransferTarget>(interceptor: Self.retries(3)).upload(
            setup.target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states
        ) { progress.add($0) }

        #expect(response.statusCode == 204)
        #expect(response.headerFields["Upload-Offset"] == String(2 << 20))
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.uploads.bytesReceived == Int64(2 << 20))
        #expect(
            setup.methods == [
                "POST /files", "PATCH /uploads/1", "HEAD /uploads/1", "PATCH /uploads/1", "HEAD /uploads/1",
                "PATCH /uploads/1",
            ])
        let requests = setup.server.requests
        #expect(requests.allSatisfy { $0.header("Tus-Resumable") == "1.0.0" })
        #expect(requests[0].header("Upload-Length") == String(2 << 20))
        #expect(requests[0].body.isEmpty)
        let metadata = ["filename upload.bin", "filetype application/octet-stream"].map { pair in
            let parts = pair.split(separator: " ")
            return "\(parts[0]) \(Data(parts[1].utf8).base64EncodedString())"
        }
        #expect(requests[0].header("Upload-Metadata") == metadata.joined(separator: ","))
        #expect(requests.last?.header("Content-Type") == "application/offset+octet-stream")
        #expect(requests.last?.header("Upload-Offset") == "1000000")
        #expect(progress.isMonotonicEndingAtOne)
        #expect(setup.stateFiles.isEmpty)
    }

    @Test("tus on URLSession: every append has a Content-Length (on Linux, pieces of at most 4 MiB)")
    func tusAppendsHaveLengths() async throws {
        let setup = try UploadServerSetup(size: 9 << 20, speaking: .tus)
        defer { setup.server.stop() }
        _ = try await Provider<TransferTarget>().upload(
            setup.target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        let appends = setup.server.requests.filter { $0.method == "PATCH" }
        #expect(appends.allSatisfy { $0.header("Content-Length") == String($0.body.count) })
        #expect(appends.allSatisfy { $0.header("Transfer-Encoding") == nil })
        // FoundationNetworking sends a larger streamed body chunked; Apple's URLSession streams
        // the file with its length in one append.
        #if canImport(FoundationNetworking)
            #expect(appends.map(\.body.count) == [4 << 20, 4 << 20, 1 << 20])
        #else
            #expect(appends.count == 1)
        #endif
    }

    @Test("tus: a file larger than the server takes is refused at the creation (413), before any byte is sent")
    func tusMaxSize() async throws {
        let setup = try UploadServerSetup(size: 50_000, speaking: .tus)
        defer { setup.server.stop() }
        setup.uploads.maximumSize = 49_999
        let error = await #expect(throws: CourierError.self) {
            try await Provider<TransferTarget>().upload(
                setup.target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        }
        #expect(error?.response?.statusCode == 413)
        #expect(setup.methods == ["POST /files"])
        #expect(setup.stateFiles.isEmpty)
    }

    @Test("tus spoken to a server that does not speak it: its plain success is an error, never taken for the upload")
    func tusToAnotherServer() async throws {
        let setup = try UploadServerSetup(size: 10_000, speaking: .ietfDraft)
        defer { setup.server.stop() }
        let error = await #expect(throws: CourierError.self) {
            try await Provider<TransferTarget>().upload(
                setup.target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        }
        #expect(error?.underlyingError as? TransferError == .resumableUploadsNotSupported(.tus))
        #expect(setup.methods == ["POST /files"])
    }

    @Test("an offset request answered with a client error is the attempt's answer; the upload's state stays")
    func offsetRefused() async throws {
        let setup = try UploadServerSetup(size: 300_000, speaking: .tus)
        defer { setup.server.stop() }
        let uploads = setup.uploads
        let refusing = Locked(false)
        let server = try LoopbackServer { request in
            refusing.value && request.method == "HEAD" ? ServerReply(status: 400) : uploads.reply(to: request)
        }
        defer { server.stop() }
        var target = setup.target
        target.baseURL = server.baseURL
        uploads.cutNextAppend(after: 100_000)
        let provider = Provider<TransferTarget>(interceptor: Self.retries(3))
        refusing.withLock { $0 = true }
        let error = await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        }
        #expect(error?.response?.statusCode == 400)
        #expect(server.requests.map(\.method) == ["POST", "PATCH", "HEAD"])
        #expect(setup.stateFiles.count == 1)

        refusing.withLock { $0 = false }
        _ = try await provider.upload(target, resumingFrom: setup.file, speaking: .tus, stateDirectory: setup.states)
        #expect(uploads.completed == [setup.data])
        #expect(server.requests.last?.header("Upload-Offset") == "100000")
    }

    @Test(
        "pause is cancelling the task: the server keeps what it has, and the next call sends the rest; one upload at a time"
    )
    func pauseAndResume() async throws {
        let setup = try UploadServerSetup(size: 600_000)
        defer { setup.server.stop() }
        let uploads = setup.uploads
        let holding = Locked(true)
        // The first append's first 250,000 bytes are kept, and its answer never comes.
        uploads.failNextAppend(after: 250_000, status: 503)
        let server = try LoopbackServer { request in
            let reply = uploads.reply(to: request)
            guard request.method == "PATCH", holding.value else { return reply }
            return .stall(Data(count: 10), after: 0)
        }
        defer { server.stop() }
        var held = setup.target
        held.baseURL = server.baseURL
        let target = held
        let provider = Provider<TransferTarget>()
        let paused = Task { try await provider.upload(target, resumingFrom: setup.file, stateDirectory: setup.states) }
        #expect(await waitUntil { server.requests.contains { $0.method == "PATCH" } })
        // A second upload of the same file to the same resource meanwhile is refused, unsent.
        let sent = server.requests.count
        let second = await #expect(throws: CourierError.self) {
            try await provider.upload(target, resumingFrom: setup.file, stateDirectory: setup.states)
        }
        #expect(second?.underlyingError as? TransferError == .uploadInProgress)
        #expect(server.requests.count == sent)
        paused.cancel()
        let error = await #expect(throws: CourierError.self) { try await paused.value }
        #expect(error?.isCancellation == true)
        #expect(uploads.openUploads == 1)

        holding.withLock { $0 = false }
        let response = try await provider.upload(target, resumingFrom: setup.file, stateDirectory: setup.states)
        #expect(try response.mapString() == "600000")
        #expect(uploads.completed == [setup.data])
        #expect(server.requests.suffix(2).map(\.method) == ["HEAD", "PATCH"])
        #expect(server.requests.last?.header("Upload-Offset") == "250000")
    }

    @Test("the draft's max-append-size: the file goes in appends no larger, resumed after a cut inside one")
    func maxAppendSize() async throws {
        let setup = try UploadServerSetup(size: 1_000_000)
        defer { setup.server.stop() }
        setup.uploads.maximumAppendSize = 300_000
        setup.uploads.cutNextAppend(after: 0)
        setup.uploads.cutNextAppend(after: 100_000)
        let response = try await Provider<TransferTarget>(interceptor: Self.retries(3)).upload(
            setup.target, resumingFrom: setup.file, stateDirectory: setup.states)

        #expect(try response.mapString() == "1000000")
        #expect(setup.uploads.completed == [setup.data])
        let appends = setup.server.requests.filter { $0.method == "PATCH" }
        #expect(appends.allSatisfy { $0.body.count <= 300_000 })
        #expect(appends.map { $0.header("Upload-Offset") ?? "" } == ["0", "0", "100000", "400000", "700000"])
        #expect(appends.map { $0.header("Upload-Complete") ?? "" } == ["?0", "?0", "?0", "?0", "?1"])
        #expect(setup.uploads.bytesReceived == 1_000_000)
        #expect(setup.stateFiles.isEmpty)
    }

    @Test(
        "a replayable stream uploads and resumes from the server's offset, its bytes before it passed over",
        arguments: [ResumableUploadProtocol.ietfDraft, .tus])
    func replayableStream(speaking: ResumableUploadProtocol) async throws {
        let setup = try UploadServerSetup(size: 800_000, speaking: speaking)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 333_333)
        let data = setup.data
        let made = Locked(0)
        let body = UploadStream(length: UInt64(data.count)) {
            made.withLock { $0 += 1 }
            return InputStream(data: data)
        }
        _ = try await Provider<TransferTarget>(interceptor: Self.retries(2)).upload(
            setup.target, resumingFrom: body, identifiedBy: "report-1", speaking: speaking,
            stateDirectory: setup.states)
        #expect(setup.uploads.completed == [data])
        #expect(setup.uploads.bytesReceived == 800_000)
        #expect(setup.server.requests.last?.header("Upload-Offset") == "333333")
        #expect(made.value == 2)
    }

    @Test("a stream that is not replayable, or has no length, is refused before anything is sent")
    func unresumableStreams() async throws {
        let setup = try UploadServerSetup(size: 10)
        defer { setup.server.stop() }
        let provider = Provider<TransferTarget>()
        let once = UploadStream(length: 10, replayable: false) { InputStream(data: Data(count: 10)) }
        let first = await #expect(throws: CourierError.self) {
            try await provider.upload(setup.target, resumingFrom: once, identifiedBy: "once")
        }
        #expect(first?.underlyingError as? TransferError == .streamNotReplayable)
        let unknown = UploadStream(length: nil) { InputStream(data: Data(count: 10)) }
        let second = await #expect(throws: CourierError.self) {
            try await provider.upload(setup.target, resumingFrom: unknown, identifiedBy: "unknown")
        }
        #expect(second?.underlyingError as? TransferError == .uploadLengthUnknown)
        #expect(setup.server.requests.isEmpty)
    }

    @Test(
        "cancelling an unfinished upload deletes its resource and state; the next upload starts over",
        arguments: [ResumableUploadProtocol.ietfDraft, .tus])
    func cancelDeletes(speaking: ResumableUploadProtocol) async throws {
        let setup = try UploadServerSetup(size: 400_000, speaking: speaking)
        defer { setup.server.stop() }
        setup.uploads.cutNextAppend(after: 150_000)
        let provider = Provider<TransferTarget>()
        _ = try? await provider.upload(
            setup.target, resumingFrom: setup.file, speaking: speaking, stateDirectory: setup.states)
        #expect(setup.uploads.openUploads == 1)

        let answer = try await provider.cancelUpload(setup.target, of: setup.file, stateDirectory: setup.states)
        #expect(answer?.statusCode == 204)
        #expect(setup.methods.last == "DELETE /uploads/1")
        #expect(setup.uploads.openUploads == 0)
        #expect(setup.stateFiles.isEmpty)
        if speaking == .tus { #expect(setup.server.requests.last?.header("Tus-Resumable") == "1.0.0") }

        let count = setup.server.requests.count
        #expect(try await provider.cancelUpload(setup.target, of: setup.file, stateDirectory: setup.states) == nil)
        #expect(setup.server.requests.count == count)
        _ = try await provider.upload(
            setup.target, resumingFrom: setup.file, speaking: speaking, stateDirectory: setup.states)
        #expect(setup.uploads.completed == [setup.data])
        #expect(setup.methods.suffix(2) == ["POST /files", "PATCH /uploads/2"])
    }
}
