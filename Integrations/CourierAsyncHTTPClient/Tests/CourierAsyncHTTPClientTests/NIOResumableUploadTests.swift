import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOResumableUpload
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// Courier's resumable uploads against SwiftNIO's own server implementation of the draft
    /// (`HTTPResumableUploadHandler`, swift-nio-extras 1.35.2, interop versions 3, 5 and 6), on
    /// this engine and on URLSession.
    @Suite("Resumable uploads against NIOResumableUpload")
    struct NIOResumableUploadTests {
        @Test("an upload whose connection is cut mid-append resumes from the server's offset, on both engines")
        func cutAndResumed() async throws {
            for engine in ["AsyncHTTPClient", "URLSession"] {
                let server = try await UploadServer.start()
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nio-\(UUID())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("upload.bin")
                let data = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) })
                try data.write(to: file)
                let transport: any Transport =
                    engine == "URLSession" ? URLSessionTransport() : AsyncHTTPClientTransport()
                let provider = Provider<UploadTarget>(
                    transport: transport,
                    interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none))
                let target = UploadTarget(baseURL: server.baseURL)
                // The server's connection is closed once it has 1 MiB of the first append.
                server.app.closeAfter(bytes: 1 << 20)
                let response = try await provider.upload(
                    target, resumingFrom: file, stateDirectory: folder.appendingPathComponent("states"))
                #expect(response.statusCode == 200, "\(engine)")
                #expect(try response.mapString() == String(3 << 20), "\(engine)")
                #expect(server.app.received == [data], "\(engine)")
                #expect(server.app.cuts == 1, "\(engine)")
                try await server.stop()
            }
        }

        @Test("an unfinished upload cancelled with DELETE: the server ends it, the next upload starts over")
        func cancelled() async throws {
            let server = try await UploadServer.start()
            defer { Task { try? await server.stop() } }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nio-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("upload.bin")
            let data = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ $0 >> 7) })
            try data.write(to: file)
            let states = folder.appendingPathComponent("states")
            let provider = Provider<UploadTarget>(transport: AsyncHTTPClientTransport())
            let target = UploadTarget(baseURL: server.baseURL)
            server.app.closeAfter(bytes: 1 << 20)
            await #expect(throws: CourierError.self) {
                try await provider.upload(target, resumingFrom: file, stateDirectory: states)
            }
            let deleted = try await provider.cancelUpload(target, of: file, stateDirectory: states)
            #expect(deleted.map { (200..<300).contains($0.statusCode) } == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: states.path).isEmpty)
            #expect(try await provider.cancelUpload(target, of: file, stateDirectory: states) == nil)

            let response = try await provider.upload(target, resumingFrom: file, stateDirectory: states)
            #expect(try response.mapString() == String(2 << 20))
            #expect(server.app.received.last == data)
        }

        @Test("1 GiB cut at 300 MiB and resumed: every byte in place, memory bounded")
        func gibibyte() async throws {
            let server = try await UploadServer.start(keepsBodies: false)
            defer { Task { try? await server.stop() } }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-nio-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("large.bin")
            try UploadApp.writePattern(to: file, size: 1 << 30)
            let provider = Provider<UploadTarget>(
                transport: AsyncHTTPClientTransport(),
                interceptor: RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.001, jitter: .none))
            server.app.closeAfter(bytes: 300 << 20)
            let baseline = ProcessMemory.residentMiB
            ProcessMemory.resetPeak()
            let response = try await provider.upload(
                UploadTarget(baseURL: server.baseURL), resumingFrom: file,
                stateDirectory: folder.appendingPathComponent("states"))
            let growth = ProcessMemory.peakMiB - baseline
            #expect(try response.mapString() == String(1 << 30))
            #expect(server.app.cuts == 1)
            #expect(server.app.misplaced == 0)
            // The process holds the server too (SwiftNIO's handler and the application reading
            // the same 1 GiB): 26 to 32 MiB measured for both; 48 leaves room for the allocator.
            #expect(growth <= 48, "peak memory grew by \(growth) MiB")
        }
    }
}

/// The resident memory of this process, from `/proc` (Linux; elsewhere 0, and the bound holds
/// trivially: these tests run on Linux in CI).
private enum ProcessMemory {
    static var residentMiB: Double { field("VmRSS:") }
    static var peakMiB: Double { field("VmHWM:") }

    /// Starts the peak over from the resident memory now (`5` to `clear_refs`, Linux 4.0 and
    /// later): the peak is otherwise the process's, earlier tests' included.
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    private static func field(_ name: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib / 1024
    }
}

/// A `POST` of a file.
private struct UploadTarget: TargetType {
    let baseURL: URL
    var path: String { "/files/upload.bin" }
    var method: Courier.HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// A NIO HTTP/1.1 server on 127.0.0.1 with `HTTPResumableUploadHandler` in front of an
/// application that collects each upload and answers with its length.
private struct UploadServer {
    let channel: any Channel
    let app: UploadApp.Log

    var baseURL: URL { URL(string: "http://127.0.0.1:\(channel.localAddress!.port!)")! }

    static func start(keepsBodies: Bool = true) async throws -> UploadServer {
        let log = UploadApp.Log(keepsBodies: keepsBodies)
        // Locations are paths: the client resolves them against the URL it sent to.
        let context = HTTPResumableUploadContext(origin: "")
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    // Without pipelining assistance: the upload handler answers requests whose body is
                    // still arriving (a conflict, a detached upload), which that handler asserts
                    // against in debug builds; the client never pipelines.
                    try sync.configureHTTPServerPipeline(withPipeliningAssistance: false)
                    try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                    try sync.addHandler(HTTPResumableUploadHandler(context: context, handlers: [UploadApp(log: log)]))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return UploadServer(channel: channel, app: log)
    }

    func stop() async throws {
        try await channel.close()
    }
}

/// The application behind the resumable upload handler: takes an upload's body, answers with its
/// length; can close the connection once it has a number of bytes (a cut mid-append).
private final class UploadApp: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    final class Log: Sendable {
        private let state = NIOLockedValueBox((received: [Data](), cutAfter: Int?.none, cuts: 0, misplaced: 0))
        /// Whether bodies are kept whole, or only checked against the pattern (a large upload).
        let keepsBodies: Bool
        var received: [Data] { state.withLockedValue { $0.received } }
        var cuts: Int { state.withLockedValue { $0.cuts } }
        /// Chunks whose first byte is not the pattern's at their offset.
        var misplaced: Int { state.withLockedValue { $0.misplaced } }

        init(keepsBodies: Bool) {
            self.keepsBodies = keepsBodies
        }

        func misplacedChunk() { state.withLockedValue { $0.misplaced += 1 } }
        func closeAfter(bytes: Int) { state.withLockedValue { $0.cutAfter = bytes } }
        func record(_ body: Data) { state.withLockedValue { $0.received.append(body) } }
        /// Whether the connection should close now, with `count` bytes of this upload in.
        func cutsAt(_ count: Int) -> Bool {
            state.withLockedValue { state in
                guard let limit = state.cutAfter, count >= limit else { return false }
                state.cutAfter = nil
                state.cuts += 1
                return true
            }
        }
    }

    private let log: Log
    private var body = Data()
    private var count = 0
    private var isUpload = false

    /// The large upload's file repeats a block of a prime length, so that a byte out of place
    /// (unless by a multiple of the prime) shows in the first byte of a chunk.
    private static let block = Data((0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    /// Byte `index` of the large upload's file.
    static func patternByte(_ index: Int) -> UInt8 {
        block[index % block.count]
    }

    /// Writes `size` bytes of the pattern to `url`, 8 MiB-ish at a time.
    static func writePattern(to url: URL, size: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = Data()
        for _ in 0..<128 { chunk.append(block) }
        var written = 0
        while written < size {
            let piece = chunk.prefix(size - written)
            try handle.write(contentsOf: piece)
            written += piece.count
        }
    }

    init(log: Log) {
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            body = Data()
            count = 0
            // The client's `OPTIONS` (does this resource take resumable uploads?) reaches the
            // application too; only uploads are recorded.
            isUpload = request.method == .post || request.method == .put
        case .body(let buffer):
            if log.keepsBodies {
                body.append(contentsOf: buffer.readableBytesView)
            } else if let first = buffer.readableBytesView.first, first != Self.patternByte(count) {
                log.misplacedChunk()
            }
            count += buffer.readableBytes
            // The upload's parent connection is the one to cut: the upload lives on.
            if log.cutsAt(count) { context.channel.parent?.close(promise: nil) }
        case .end:
            if isUpload, log.keepsBodies { log.record(body) }
            var buffer = context.channel.allocator.buffer(capacity: 16)
            buffer.writeString(String(count))
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok))), promise: nil)
            context.write(wrapOutboundOut(.body(buffer)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
