import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Record and replay at the seam: every kind of exchange recorded against a loopback server into a
/// HAR file, replayed with the server stopped (same results, same hooks), secrets never written.
@Suite("HAR record and replay", .serialized)
struct HARRecordReplayTests {
    private static func retries() -> RetryPolicy {
        RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.001, jitter: .none)
    }

    private static func provider(_ engine: any Transport, _ recorder: CallRecorder) -> Provider<Vault> {
        Provider<Vault>(
            transport: engine, plugins: [RecordingPlugin("P", recorder: recorder, observesAttempts: true)],
            interceptor: retries())
    }

    /// Records the scenario into `har`, returning what it gave and the hooks' sequence.
    private static func record(into har: URL, upload: URL) async throws -> (URL, [String], [HookEvent]) {
        let firstEventRead = DispatchSemaphore(value: 0)
        let server = try Vault.server(firstEventRead: firstEventRead)
        defer { server.stop() }
        let hooks = CallRecorder()
        let recorder = HARRecorder(recording: URLSessionTransport(), to: har)
        let results = await Vault.scenario(
            provider(recorder, hooks), base: server.baseURL, file: upload, firstEventRead: firstEventRead)
        return (server.baseURL, results, hooks.events)
    }

    @Test("recorded, then replayed with the server stopped: the same results, the same hook sequence")
    func recordThenReplay() async throws {
        let folder = try Scratch.folder()
        let (upload, _) = try Scratch.file(in: folder, name: "upload.bin", size: 10_000)
        let har = folder.appendingPathComponent("vault.har")
        let (base, recorded, recordedHooks) = try await Self.record(into: har, upload: upload)
        #expect(recorded.count == 7)
        #expect(recorded.first?.hasPrefix("profile 200") == true)
        #expect(recorded.contains("flaky 200 fine"))
        #expect(recorded.last == #"events ["first", "second"]"#)

        let hooks = CallRecorder()
        let replayer = try HARReplayer(file: har)
        let replayed = await Vault.scenario(Self.provider(replayer, hooks), base: base, file: upload)
        #expect(
            replayed
                == recorded.map { $0.replacingOccurrences(of: "ANSWER-SECRET-4", with: "***") }
                .map { $0.replacingOccurrences(of: "TOKEN-SECRET-6", with: "***") })
        #expect(hooks.events == recordedHooks)
        #expect(replayer.playedCount == replayer.entryCount)
        #expect(replayer.unmatched.isEmpty)
    }

    @Test("no secret reaches the file: headers, query, cookies and body fields are masked in both directions")
    func secretsNeverWritten() async throws {
        let folder = try Scratch.folder()
        let (upload, _) = try Scratch.file(in: folder, name: "upload.bin", size: 100)
        let har = folder.appendingPathComponent("vault.har")
        _ = try await Self.record(into: har, upload: upload)
        let bytes = try Data(contentsOf: har)
        let text = String(decoding: bytes, as: UTF8.self)
        for secret in Vault.secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the file")
            #expect(bytes.range(of: Data(Data(secret.utf8).base64EncodedString().utf8)) == nil)
        }
        #expect(text.contains(#""name" : "Authorization""#))
        #expect(text.contains("access_token=***"))
        #expect(text.contains(#""_courier""#))
        #expect(text.contains(#""target" : "Vault.profile""#))
        #expect(text.contains(#""version" : "1.2""#))
    }

    @Test("a request no entry matches fails clearly: what was asked, the nearest entries and why")
    func unmatched() async throws {
        let folder = try Scratch.folder()
        let (upload, _) = try Scratch.file(in: folder, name: "upload.bin", size: 100)
        let har = folder.appendingPathComponent("vault.har")
        _ = try await Self.record(into: har, upload: upload)
        let replayer = try HARReplayer(file: har, order: .firstMatch)
        let provider = Provider<Vault>(transport: replayer)
        let elsewhere = URL(string: "http://127.0.0.1:9")!
        let error = await #expect(throws: CourierError.self) { try await provider.request(Vault(elsewhere, .profile)) }
        let unmatched = try #require(error?.underlyingError as? HARReplayError)
        guard case .unmatched(let request, let nearest) = unmatched else {
            Issue.record("not unmatched: \(unmatched)")
            return
        }
        #expect(request.hasPrefix("GET http://127.0.0.1:9/profile?"))
        #expect(request.contains("access_token=***"))
        #expect(nearest.count == 3)
        #expect(nearest.first?.contains("/profile") == true)
        #expect(nearest.first?.contains("differs in URL") == true)
        #expect(unmatched.description.contains("Nearest:"))
        #expect(replayer.unmatched == [unmatched])
    }

    @Test("each entry answers once in order: a request asked twice gets the two recorded answers")
    func inOrder() async throws {
        let folder = try Scratch.folder()
        let (upload, _) = try Scratch.file(in: folder, name: "upload.bin", size: 100)
        let har = folder.appendingPathComponent("vault.har")
        let (base, _, _) = try await Self.record(into: har, upload: upload)
        // /flaky was recorded twice: a 503, then a 200 after the retry.
        let provider = Provider<Vault>(transport: try HARReplayer(file: har))
        let flaky = Vault(base, .flaky)
        let first = await #expect(throws: CourierError.self) { try await provider.request(flaky) }
        #expect(first?.response?.statusCode == 503)
        #expect(try await provider.request(flaky).statusCode == 200)
        let third = await #expect(throws: CourierError.self) { try await provider.request(flaky) }
        let description = (third?.underlyingError as? HARReplayError)?.description ?? ""
        #expect(description.contains("/flaky: differs in already played"))
    }

    /// A transport that keeps the origins it is given, declaring that it reads them or not.
    private final class OriginProbe: Transport, Sendable {
        let declares: Bool
        let seen = Locked<[String]>([])
        init(declares: Bool) { self.declares = declares }
        var capabilities: TransportCapabilities { declares ? [.requestOrigin] : [] }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let origin = request.origin.map { "\($0.target) #\($0.attempt) \($0.requestID)" } ?? "none"
            seen.withLock { $0.append(origin) }
            return TransportResponse(statusCode: seen.value.count == 1 ? 503 : 200, data: Data())
        }
    }

    @Test("the provider names the target and attempt only to an engine that declares it reads them")
    func originOnlyWhenAsked() async throws {
        let asks = OriginProbe(declares: true)
        let target = Vault(URL(string: "http://127.0.0.1:9")!, .flaky)
        _ = try await Provider<Vault>(transport: asks, interceptor: Self.retries()).request(target)
        #expect(asks.seen.value.count == 2)
        #expect(asks.seen.value.first?.hasSuffix("#1 #1") == true)
        #expect(asks.seen.value.last?.hasSuffix("#2 #1") == true)
        let silent = OriginProbe(declares: false)
        _ = try await Provider<Vault>(transport: silent, interceptor: Self.retries()).request(target)
        #expect(silent.seen.value == ["none", "none"])
    }
}
