import CourierTesting
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``ResumeStage`` on its own and over an engine that does not enforce time limits: the limit of
/// each wait of a piece, and the finished file kept from a download of the same destination that
/// starts before it is moved into place.
@Suite("ResumeStage")
struct ResumeStageTests {
    /// URLSession, declaring no `.timeouts` and given none: an engine that never times out itself,
    /// as a user's engine or `HARReplayer` may be.
    private struct UntimedEngine: Transport {
        let base = URLSessionTransport()

        var capabilities: TransportCapabilities { base.capabilities.subtracting(.timeouts) }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var request = request
            request.timeout = nil
            request.urlRequest.timeoutInterval = 600
            return try await base.send(request)
        }
    }

    /// A download with an idle limit of `timeoutInterval`.
    private struct TimedTarget: TargetType {
        let baseURL: URL
        var path: String { "file" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var timeoutInterval: TimeInterval? { 0.3 }
    }

    /// A provider over ``UntimedEngine`` whose limits sleep on `clock`.
    private static func provider(_ clock: TestClock) -> Provider<TimedTarget> {
        Provider<TimedTarget>(transport: UntimedEngine(), options: ProviderOptions(clock: clock))
    }

    @Test("a body that stalls after the head times out at the idle limit and keeps what arrived, to resume")
    func stalledBodyTimesOut() async throws {
        let folder = try Scratch.folder()
        let (_, data) = try Scratch.file(in: folder, name: "source", size: 1 << 20)
        let resource = RangedResource(data)
        resource.stallNext(after: 300_000)
        let server = try LoopbackServer { resource.reply(to: $0) }
        defer { server.stop() }
        let file = folder.appendingPathComponent("download.bin")
        let target = TimedTarget(baseURL: server.baseURL)
        let clock = TestClock()
        let progress = ProgressLog()
        let download = Task { try await Self.provider(clock).download(target, resumingInto: file) { progress.add($0) } }
        defer { download.cancel() }

        #expect(await waitUntil { progress.last?.completedBytes == 300_000 })
        try await clock.waitForSleepers(1)  // the wait for the next chunk, which never comes
        clock.advance(by: 0.3)
        let error = await #expect(throws: CourierError.self) { try await download.value }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        #expect(ResumableDownload.resumableLength(of: file) == 300_000)

        _ = try await Self.provider(clock).download(target, resumingInto: file)
        #expect(Bool(try Data(contentsOf: file) == data))
        #expect(resource.rangesAsked.last == "bytes=300000-")
    }

    @Test("a head that never comes times out at the idle limit")
    func stalledHeadTimesOut() async throws {
        let server = try LoopbackServer { _ in .raw([.stall]) }
        defer { server.stop() }
        let file = try Scratch.folder().appendingPathComponent("download.bin")
        let clock = TestClock()
        let download = Task {
            try await Self.provider(clock).download(TimedTarget(baseURL: server.baseURL), resumingInto: file)
        }
        defer { download.cancel() }

        #expect(await waitUntil { server.requests.count == 1 })
        try await clock.waitForSleepers(1)  // the wait for the head
        clock.advance(by: 0.3)
        let error = await #expect(throws: CourierError.self) { try await download.value }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
    }

    @Test("a download of the same destination started before the finished file is placed cannot empty it")
    func finishedFileOutlivesTheLock() async throws {
        let folder = try Scratch.folder()
        let (_, data) = try Scratch.file(in: folder, name: "source", size: 300_000)
        let resource = RangedResource(data)
        let server = try LoopbackServer { resource.reply(to: $0) }
        let refusing = try LoopbackServer { _ in .text("gone", status: 410) }
        defer {
            server.stop()
            refusing.stop()
        }
        let file = folder.appendingPathComponent("download.bin")
        let stage = ResumeStage(destination: file)
        let context = ExchangeContext(
            engine: URLSessionTransport(), timeouts: nil, cookies: nil, scope: nil, notes: nil, timers: nil)
        let chain = StageChain.Next([])

        let finished = try await stage.send(
            TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("file"))), context,
            next: chain)
        // The window: the first download's lock is released, its file not yet moved into place.
        let second = try await stage.send(
            TransportRequest(urlRequest: URLRequest(url: refusing.baseURL.appendingPathComponent("file"))), context,
            next: chain)

        #expect(second.statusCode == 410)
        let placed = try #require(finished.fileURL)
        #expect(Bool(try Data(contentsOf: placed) == data))
        #expect(finished.headerFields["Content-Length"] == "300000")
    }
}
