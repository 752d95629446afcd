import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Upload bodies given as asynchronous sequences of chunks (an OpenAPI `HTTPBody`, say), and
/// `UploadStream.chunks()`, through which any engine reads a stream body.
@Suite("Upload streams of asynchronous chunks")
struct AsyncUploadStreamTests {
    private static let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 11) })

    private func target(_ server: LoopbackServer, _ stream: UploadStream) -> TransferTarget {
        TransferTarget(baseURL: server.baseURL, path: "/chunks", method: .put, task: .uploadStream(stream))
    }

    @Test("chunks of unknown length arrive whole through the provider, with an exact length or chunked")
    func unknownLength() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 201) }
        let stream = UploadStream { Chunked(Self.body, size: 10_000) }

        let response = try await Provider<TransferTarget>().request(target(server, stream))

        #expect(response.statusCode == 201)
        let received = try #require(server.requests.first)
        #expect(received.body == Self.body)
        let framed =
            received.header("Content-Length") == "\(Self.body.count)"
            || received.header("Transfer-Encoding")?.lowercased() == "chunked"
        #expect(framed)
    }

    @Test("chunks that are not the declared length are refused with the two sizes, and nothing is sent")
    func lengthMismatch() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let stream = UploadStream(length: 10) { Chunked(Self.body, size: 10_000) }

        let error = await capture { try await Provider<TransferTarget>().request(target(server, stream)) }

        guard case .transfer(let transferError, _)? = error else {
            Issue.record("expected .transfer(streamLengthMismatch), got \(String(describing: error))")
            return
        }
        #expect(error?.stage == .transfer)
        #expect(transferError == .streamLengthMismatch(part: "body", expected: 10, actual: UInt64(Self.body.count)))
        #expect(server.requests.isEmpty)
    }

    @Test("a sequence that throws fails the request with its error")
    func failingSequence() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let stream = UploadStream { Chunked(Self.body, size: 10_000, failAfter: 2) }

        let error = await capture { try await Provider<TransferTarget>().request(target(server, stream)) }

        guard case .transport(let underlying, _)? = error else {
            Issue.record("expected .transport(ChunkFailure), got \(String(describing: error))")
            return
        }
        #expect(underlying is ChunkFailure)
        #expect(server.requests.isEmpty)
    }

    @Test("chunks that can be read once are not retried: the error says why, and one request was sent")
    func notReplayable() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        let made = Locked(0)
        let stream = UploadStream(replayable: false) {
            made.withLock { $0 += 1 }
            return Chunked(Self.body, size: 50_000)
        }
        let provider = Provider<TransferTarget>(interceptor: .retryPolicy(exponentialBackoffScale: 0.01))

        let error = await capture { try await provider.request(target(server, stream)) }

        guard case .underlying(let underlying, let response)? = error else {
            Issue.record("expected .underlying(streamNotReplayable), got \(String(describing: error))")
            return
        }
        #expect(underlying as? TransferError == .streamNotReplayable)
        #expect(response?.statusCode == 503)
        #expect(server.requests.map(\.body) == [Self.body])
        #expect(made.value == 1)
    }

    @Test("chunks() reads an InputStream body whole; a second read of a one-time stream is refused")
    func chunksOfInputStream() async throws {
        let stream = UploadStream(replayable: false) { InputStream(data: Self.body) }

        var collected = Data()
        for try await chunk in try stream.chunks() {
            collected.append(chunk)
        }

        #expect(collected == Self.body)
        #expect(!stream.canBeSent)
        #expect(throws: TransferError.streamNotReplayable) { try stream.chunks() }
    }

    @Test("an asynchronous body has no InputStream, and says where to read it")
    func noInputStream() {
        let stream = UploadStream { Chunked(Self.body, size: 1_000) }
        #expect(stream.isAsynchronous)
        #expect(throws: TransferError.streamIsAsynchronous) { try stream.makeStream() }
        #expect(TransferError.streamIsAsynchronous.description.contains("chunks()"))
    }
}

extension TemporaryFilesSuite {
    /// Collecting an asynchronous body for an engine that sends only what it holds.
    @Suite("Collected upload streams")
    struct CollectedUploadStreamTests {
        @Test("a body within the memory limit is collected in memory")
        func inMemory() async throws {
            let body = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0) })
            let collected = try await UploadStream { Chunked(body, size: 7_000) }.collected(memoryLimit: 64_000)
            guard case .data(let data) = collected else {
                Issue.record("expected .data, got \(collected)")
                return
            }
            #expect(data == body)
        }

        @Test("a body beyond the memory limit goes to a temporary file holding every byte")
        func toFile() async throws {
            let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 3) })
            let collected = try await UploadStream { Chunked(body, size: 7_000) }.collected(memoryLimit: 64_000)
            guard case .temporaryFile(let url) = collected else {
                Issue.record("expected .temporaryFile, got \(collected)")
                return
            }
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(try Data(contentsOf: url) == body)
        }

        @Test("a body that fails after spilling to a file leaves no file behind")
        func failureCleansUp() async throws {
            let body = Data(repeating: 9, count: 200_000)
            let before = Scratch.courierTemporaryFiles()
            await #expect(throws: ChunkFailure.self) {
                _ = try await UploadStream { Chunked(body, size: 20_000, failAfter: 8) }.collected(memoryLimit: 64_000)
            }
            #expect(await Scratch.noTemporaryFilesLeft(since: before))
        }
    }
}

/// The error a ``Chunked`` sequence throws when told to fail.
struct ChunkFailure: Error {}

/// A body handed out in chunks of `size` bytes, asynchronously, optionally failing after
/// `failAfter` chunks.
struct Chunked: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let body: Data
    let size: Int
    var failAfter: Int?

    init(_ body: Data, size: Int, failAfter: Int? = nil) {
        (self.body, self.size, self.failAfter) = (body, size, failAfter)
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: Chunked
        var offset = 0
        var handedOut = 0

        mutating func next() async throws -> [UInt8]? {
            await Task.yield()
            if let limit = sequence.failAfter, handedOut == limit { throw ChunkFailure() }
            guard offset < sequence.body.count else { return nil }
            let end = Swift.min(offset + sequence.size, sequence.body.count)
            defer { (offset, handedOut) = (end, handedOut + 1) }
            return [UInt8](sequence.body[offset..<end])
        }
    }
}

/// A full-duplex exchange cannot work on URLSession, which reads an asynchronous body whole
/// before it sends it: a body that waits for the answer fails loudly instead of hanging.
@Suite("Full duplex on URLSession")
struct FullDuplexTests {
    struct Echo: TargetType {
        var baseURL: URL
        let body: UploadStream
        var path: String { "/duplex" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .uploadStream(body) }
        var headers: [String: String]? { nil }
        var timeoutInterval: TimeInterval? { 1 }
    }

    @Test("a body that waits for the answer fails with streamStalled at the request's timeout")
    func stalledBody() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        // The first chunk, then nothing until an answer that cannot come.
        let (chunks, continuation) = AsyncStream.makeStream(of: Data.self)
        continuation.yield(Data("hello".utf8))
        let start = Date()
        let error = await capture {
            try await Provider<Echo>().request(
                Echo(baseURL: server.baseURL, body: UploadStream(replayable: false) { chunks }))
        }
        continuation.finish()
        guard case .transfer(let transfer, _)? = error else {
            Issue.record("expected .transfer(streamStalled), got \(String(describing: error))")
            return
        }
        guard case .streamStalled(let part, let seconds) = transfer else {
            Issue.record("expected streamStalled, got \(transfer)")
            return
        }
        #expect(part == "body" && abs(seconds - 1) < 0.01)
        #expect(Date().timeIntervalSince(start) >= 1)
        #expect(server.requests.isEmpty)
    }
}
