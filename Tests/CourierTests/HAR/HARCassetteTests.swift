import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cassettes (record modes), faults and timing in replay, downloads, and a HAR file written by
/// another tool.
@Suite("HAR cassettes, faults and timing", .serialized)
struct HARCassetteTests {
    /// A target on a loopback server.
    private struct Item: TargetType {
        var baseURL: URL
        var path: String
        var method: HTTPMethod = .get
        var task: HTTPTask = .requestPlain
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    private static func itemServer() throws -> (LoopbackServer, Locked<Int>) {
        let count = Locked(0)
        let server = try LoopbackServer { request in
            count.withLock { $0 += 1 }
            return .text("item \(request.path)")
        }
        return (server, count)
    }

    @Test("once records a missing file and replays it after, with the server gone; none never sends")
    func onceThenReplay() async throws {
        let folder = try Scratch.folder()
        let har = folder.appendingPathComponent("items.har")
        let (server, count) = try Self.itemServer()
        let first = try Cassette(file: har, mode: .once)
        #expect(first.isRecording)
        let a = try await Provider<Item>(transport: first).request(Item(baseURL: server.baseURL, path: "/a"))
        #expect(try a.mapString() == "item /a")
        server.stop()

        let second = try Cassette(file: har, mode: .once)
        #expect(!second.isRecording)
        let replayed = try await Provider<Item>(transport: second).request(Item(baseURL: server.baseURL, path: "/a"))
        #expect(try replayed.mapString() == "item /a")
        #expect(count.value == 1)

        let strict = try Cassette(file: har, mode: .none)
        let error = await #expect(throws: CourierError.self) {
            try await Provider<Item>(transport: strict).request(Item(baseURL: server.baseURL, path: "/b"))
        }
        #expect(error?.underlyingError is HARReplayError)
        #expect(count.value == 1)
        #expect(throws: HARReplayError.self) {
            try Cassette(file: folder.appendingPathComponent("missing.har"), mode: .none)
        }
    }

    @Test("new_episodes replays what it has and records what it lacks; all records everything again")
    func newEpisodesAndAll() async throws {
        let folder = try Scratch.folder()
        let har = folder.appendingPathComponent("items.har")
        let (server, count) = try Self.itemServer()
        defer { server.stop() }
        _ = try await Provider<Item>(transport: try Cassette(file: har, mode: .once))
            .request(Item(baseURL: server.baseURL, path: "/a"))
        let episodes = try Cassette(file: har, mode: .newEpisodes)
        let provider = Provider<Item>(transport: episodes)
        _ = try await provider.request(Item(baseURL: server.baseURL, path: "/a"))
        _ = try await provider.request(Item(baseURL: server.baseURL, path: "/b"))
        #expect(count.value == 2)
        #expect(try HARReplayer(file: har).entryCount == 2)

        let again = Provider<Item>(transport: try Cassette(file: har, mode: .all))
        _ = try await again.request(Item(baseURL: server.baseURL, path: "/c"))
        #expect(count.value == 3)
        #expect(try HARReplayer(file: har).entryCount == 1)
        let named = ProcessInfo.processInfo.environment["COURIER_RECORD_MODE"].flatMap(RecordMode.init(rawValue:))
        #expect(RecordMode.fromEnvironment(default: .none) == named ?? .none)
    }

    /// The vault's scenario recorded into a fresh file, its server stopped after: the file and the
    /// base URL it was recorded at.
    private static func recordVault() async throws -> (URL, URL) {
        let folder = try Scratch.folder()
        let (upload, _) = try Scratch.file(in: folder, name: "upload.bin", size: 100)
        let har = folder.appendingPathComponent("vault.har")
        let firstEventRead = DispatchSemaphore(value: 0)
        let server = try Vault.server(firstEventRead: firstEventRead)
        defer { server.stop() }
        let recorder = HARRecorder(recording: URLSessionTransport(), to: har)
        _ = await Vault.scenario(
            Provider<Vault>(transport: recorder), base: server.baseURL, file: upload, firstEventRead: firstEventRead)
        return (har, server.baseURL)
    }

    @Test("faults in replay: a status, a lost connection, a body cut mid-stream, a late answer")
    func faults() async throws {
        let (har, base) = try await Self.recordVault()

        let replayer = try HARReplayer(file: har, order: .firstMatch)
        replayer.inject(.status(503, retryAfter: 1), atExchange: 1)
        replayer.inject(.connectionLost, atExchange: 2)
        replayer.inject(.cutBody(afterBytes: 15), atExchange: 3)
        let provider = Provider<Vault>(transport: replayer)
        let unavailable = await #expect(throws: CourierError.self) { try await provider.request(Vault(base, .profile)) }
        #expect(unavailable?.response?.statusCode == 503)
        #expect(unavailable?.response?.headerFields["Retry-After"] == "1")
        let lost = await #expect(throws: CourierError.self) { try await provider.request(Vault(base, .profile)) }
        #expect((lost?.underlyingError as? TransportFailure)?.kind == .connectionLost)
        var events: [String] = []
        let cut = await #expect(throws: CourierError.self) {
            for try await event in provider.events(Vault(base, .events), reconnection: .never) {
                events.append(event.data)
            }
        }
        #expect(events == ["first"])
        #expect(cut?.stage == .transport)
        replayer.inject(.delay(0.05), atExchange: 4)
        let started = ContinuousClock.now
        #expect(try await provider.request(Vault(base, .profile)).statusCode == 200)
        #expect(started.duration(to: .now) >= .milliseconds(50))
        #expect(try await provider.request(Vault(base, .profile)).statusCode == 200)
    }

    @Test("timing as recorded: a stream's chunks come no sooner than recorded; none: at once, in the recorded chunks")
    func timing() async throws {
        let (har, base) = try await Self.recordVault()
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any]
        let entries = (file?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        let chunks = (entries.last?["_courier"] as? [String: Any])?["chunks"] as? [[String: Any]] ?? []
        let span = (chunks.last?["at"] as? Double ?? 0) / 1000
        #expect(chunks.count == 2)

        let started = ContinuousClock.now
        var events: [String] = []
        for try await event in Provider<Vault>(transport: try HARReplayer(file: har, timing: .recorded))
            .events(Vault(base, .events), reconnection: .never)
        {
            events.append(event.data)
        }
        #expect(events == ["first", "second"])
        #expect(started.duration(to: .now) >= .seconds(span * 0.99))
    }

    @Test("a download to a file replays into a file")
    func download() async throws {
        let folder = try Scratch.folder()
        let har = folder.appendingPathComponent("report.har")
        let server = try Vault.server()
        defer { server.stop() }
        let destination = folder.appendingPathComponent("report.bin")
        let target = TransferTarget(
            baseURL: server.baseURL, path: "/report.bin", method: .get,
            task: .downloadDestination { _, _ in (destination, [.removePreviousFile]) })
        _ = try await Provider<TransferTarget>(transport: HARRecorder(recording: URLSessionTransport(), to: har))
            .request(target)
        try FileManager.default.removeItem(at: destination)
        let response = try await Provider<TransferTarget>(transport: try HARReplayer(file: har)).request(target)
        #expect(response.fileURL?.standardizedFileURL == destination.standardizedFileURL)
        #expect(try Data(contentsOf: destination) == Vault.reportBytes)
    }

    @Test("a stream that broke while recorded breaks the same way in replay, after the same events")
    func brokenStream() async throws {
        let har = try Scratch.folder().appendingPathComponent("broken.har")
        let server = try LoopbackServer { _ in
            .raw(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "9\r\ndata: a\n\n\r\n")
        }
        let target = Item(baseURL: server.baseURL, path: "/events")
        func read(_ engine: any Transport) async -> ([String], CourierError?) {
            var events: [String] = []
            do {
                for try await event in Provider<Item>(transport: engine).events(target, reconnection: .never) {
                    events.append(event.data)
                }
                return (events, nil)
            } catch {
                return (events, error as? CourierError)
            }
        }
        let recorded = await read(HARRecorder(recording: URLSessionTransport(), to: har))
        server.stop()
        let replayed = await read(try HARReplayer(file: har))
        #expect(recorded.0 == ["a"])
        #expect(recorded.1?.stage == .transport)
        #expect(replayed.0 == recorded.0)
        #expect(replayed.1?.stage == .transport)
        #expect(String(decoding: try Data(contentsOf: har), as: UTF8.self).contains(#""incomplete" : true"#))
    }

    @Test("a body longer than the recorder keeps is never replayed cut short: the replay says so")
    func truncatedBody() async throws {
        let har = try Scratch.folder().appendingPathComponent("long.har")
        let long = String(repeating: "x", count: 1000)
        let server = try LoopbackServer { _ in .text(long) }
        let target = Item(baseURL: server.baseURL, path: "/long")
        let recorder = HARRecorder(recording: URLSessionTransport(), to: har, maximumBodyBytes: 100)
        #expect(try await Provider<Item>(transport: recorder).request(target).mapString() == long)
        server.stop()
        let error = await #expect(throws: CourierError.self) {
            try await Provider<Item>(transport: try HARReplayer(file: har)).request(target)
        }
        let replay = try #require(error?.underlyingError as? HARReplayError)
        #expect(
            replay == .bodyNotRecorded(request: "GET \(server.baseURL.absoluteString)/long", recorded: 100, size: 1000))
    }
}
