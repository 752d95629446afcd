import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The request body and transfer cases.
extension ConformanceRun {
    func performRequestBodyCase() async throws {
        switch testCase {
        case .requestBodyFromData: try await bodyFromData()
        case .requestBodyFromFile: try await withScratchFile(size: 3 << 20) { try await bodyFromFile($0, $1) }
        case .requestBodyMultipart: try await withScratchFile(size: 200_000) { try await multipart($0, $1) }
        case .requestBodyFromStream: try await bodyFromStream()
        case .downloadToFile: try await downloadToFile()
        case .progress: try await withScratchFile(size: 2 << 20) { try await progress($0, $1) }
        default: throw fail("not a request body case")
        }
    }

    /// A server that records what it receives and answers 200.
    private func recordingServer() throws -> LoopbackServer {
        try LoopbackServer { _ in ServerReply(status: 200) }
    }

    /// The framing a request arrived with: its `Content-Length`, or chunked.
    private func framing(_ request: ServerRequest) -> String {
        request.header("Transfer-Encoding").map { "Transfer-Encoding: \($0)" }
            ?? request.header("Content-Length").map { "Content-Length: \($0)" } ?? "no framing"
    }

    private func bodyFromData() async throws {
        let server = try recordingServer()
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })
        _ = try await send(TransportRequest(urlRequest: Self.request(server, "data", method: "PUT", body: body)))
        let received = try receivedRequest(server)
        try expect(received.body == body, "\(received.body.count) bytes arrived of \(body.count)")
        try expect(received.header("Content-Length") == "\(body.count)", "the body came with \(framing(received))")
    }

    private func bodyFromFile(_ file: URL, _ contents: Data) async throws {
        let server = try recordingServer()
        _ = try await send(
            TransportRequest(urlRequest: Self.request(server, "file", method: "PUT"), body: .file(file)))
        let received = try receivedRequest(server)
        try expect(received.body == contents, "\(received.body.count) bytes arrived of \(contents.count)")
        let length = received.header("Content-Length")
        let chunked = received.header("Transfer-Encoding")?.lowercased() == "chunked"
        try expect(
            (length == "\(contents.count)") != chunked, "the body came with \(framing(received)): one framing, exactly")
    }

    private func multipart(_ file: URL, _ contents: Data) async throws {
        let server = try recordingServer()
        var form = MultipartFormData(boundary: "conformance-boundary")
        form.append(Data("Ann".utf8), name: "author")
        form.append(fileURL: file, name: "scan", mimeType: "application/octet-stream")
        var request = Self.request(server, "form", method: "POST")
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        _ = try await send(TransportRequest(urlRequest: request, body: .multipart(form)))
        let received = try receivedRequest(server)
        let parts = MultipartParser.parse(received.body, contentType: received.header("Content-Type"))
        try expect(
            parts?.map(\.body) == [Data("Ann".utf8), contents],
            "the form arrived as \(parts.map { "\($0.count) parts" } ?? "no form")")
    }

    private func bodyFromStream() async throws {
        let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 19) })
        let chunks = stride(from: 0, to: body.count, by: 30_000).map { body[$0..<min($0 + 30_000, body.count)] }
        for length in [UInt64(body.count), nil] {
            let streams = [
                ("an InputStream", UploadStream(length: length) { InputStream(data: body) }),
                ("asynchronous chunks", UploadStream(length: length) { ChunkSequence(chunks: chunks) }),
            ]
            for (source, stream) in streams {
                let known = length != nil ? "known" : "unknown"
                try await checkStreamBody(stream, body, "\(source) of \(known) length")
            }
        }
    }

    /// Sends `stream` and checks the bytes and framing that arrived: the exact `Content-Length`
    /// for a known length, chunks or an exact length (a transport may collect the body first)
    /// for an unknown one.
    private func checkStreamBody(_ stream: UploadStream, _ body: Data, _ what: String) async throws {
        let server = try recordingServer()
        _ = try await send(
            TransportRequest(urlRequest: Self.request(server, "stream", method: "PUT"), body: .stream(stream)))
        let received = try receivedRequest(server)
        try expect(received.body == body, "\(received.body.count) bytes arrived of \(body.count) from \(what)")
        let exactLength = received.header("Content-Length") == "\(body.count)"
        let chunked = received.header("Transfer-Encoding")?.lowercased() == "chunked"
        try expect(
            stream.length == nil ? chunked || exactLength : exactLength, "\(what) came with \(framing(received))")
    }

    private func downloadToFile() async throws {
        let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let server = try LoopbackServer { _ in ServerReply(body: body) }
        let response = try await send(TransportRequest(urlRequest: Self.request(server, "file"), delivery: .file))
        guard let file = response.fileURL else { throw fail("no file for a download (\(response.data.count) bytes)") }
        defer { try? FileManager.default.removeItem(at: file) }
        try expect(response.data.isEmpty, "a download also returned \(response.data.count) bytes in memory")
        try expect((try? Data(contentsOf: file)) == body, "the downloaded file differs from the body")
    }

    private func progress(_ file: URL, _ contents: Data) async throws {
        let body = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 17) })
        let server = try LoopbackServer { request in request.method == "GET" ? ServerReply(body: body) : ServerReply() }
        let reports = ReportLog()
        _ = try await send(
            TransportRequest(urlRequest: Self.request(server, "down"), progress: { reports.add($0) }))
        try check(reports.reports(.download), total: Int64(body.count), "download")
        let uploads = ReportLog()
        _ = try await send(
            TransportRequest(
                urlRequest: Self.request(server, "up", method: "PUT"), body: .file(file), progress: { uploads.add($0) })
        )
        try check(uploads.reports(.upload), total: Int64(contents.count), "upload")
    }

    private func check(_ reports: [TransferProgress], total: Int64, _ direction: String) throws {
        try expect(!reports.isEmpty, "no \(direction) progress was reported")
        let grows = zip(reports, reports.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes }
        try expect(grows, "\(direction) progress went back: \(reports.map(\.completedBytes))")
        try expect(
            reports.last?.completedBytes == total, "\(direction) progress ended at \(reports.last?.completedBytes ?? 0)"
        )
        try expect(
            reports.last?.expectedBytes == total,
            "the \(direction) total was \(String(describing: reports.last?.expectedBytes))")
    }

    private func receivedRequest(_ server: LoopbackServer) throws -> ServerRequest {
        guard let request = server.requests.first else { throw fail("the server received nothing") }
        return request
    }

    /// Runs `body` with a scratch file of `size` bytes, deleted afterwards.
    private func withScratchFile(size: Int, _ body: (URL, Data) async throws -> Void) async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).bin")
        let contents = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 3 &+ $0 >> 9) })
        try contents.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try await body(url, contents)
    }
}

/// Progress reports, as a transport hands them over on any thread.
final class ReportLog: Sendable {
    private let storage = Locked<[TransferProgress]>([])

    func add(_ report: TransferProgress) { storage.withLock { $0.append(report) } }

    func reports(_ direction: TransferProgress.Direction) -> [TransferProgress] {
        storage.withLock { $0.filter { $0.direction == direction } }
    }
}

/// Chunks handed out asynchronously, one by one, as an OpenAPI body would.
struct ChunkSequence: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: chunks[...])
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>

        mutating func next() async -> Data? {
            await Task.yield()
            return remaining.popFirst()
        }
    }
}
