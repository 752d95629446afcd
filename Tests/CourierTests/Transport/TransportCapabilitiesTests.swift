import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that declares nothing: options it cannot honour are refused, and the provider
/// enforces what it does not (timeouts, downloads to a file).
@Suite("Transport capabilities")
struct TransportCapabilitiesTests {
    @Test("a request asking for an option the transport does not declare fails before it is sent")
    func unsupportedOptionRefused() async throws {
        let transport = MinimalTransport()
        let provider = Provider<TransferTarget>(transport: transport)
        let target = TransferTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/cached", method: .get, task: .requestPlain,
            cachePolicy: .returnCacheDataDontLoad)

        let error = await capture { try await provider.request(target) }

        guard case .adaptation(let underlying, _)? = error else {
            Issue.record("expected .adaptation(unsupportedOptions), got \(String(describing: error))")
            return
        }
        #expect(
            underlying as? RequestValidationError
                == .unsupportedOptions(.cachePolicy, transport: "MinimalTransport"))
        #expect(transport.sent.value == 0)
        #expect("\(underlying)".contains("[cachePolicy]"))
    }

    @Test("a request with URLRequest's defaults asks for nothing, and goes through")
    func defaultsAskForNothing() async throws {
        let transport = MinimalTransport()
        let provider = Provider<TransferTarget>(transport: transport)
        let target = TransferTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/", method: .get, task: .requestPlain)

        let response = try await provider.request(target)

        #expect(response.statusCode == 200)
        #expect(transport.sent.value == 1)
    }

    @Test(
        "what a request asks for",
        arguments: [
            (URLRequest.CachePolicy.reloadIgnoringLocalCacheData, true, TransportCapabilities.cachePolicy),
            (.useProtocolCachePolicy, false, .networkAccessLimits),
            (.useProtocolCachePolicy, true, TransportCapabilities()),
        ])
    func required(cachePolicy: URLRequest.CachePolicy, cellular: Bool, expected: TransportCapabilities) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        request.cachePolicy = cachePolicy
        request.allowsCellularAccess = cellular
        #expect(TransportCapabilities.required(by: request) == expected)
    }

    @Test("URLSessionTransport honours every option but repeated field lines; stubs and the testing transports all")
    func builtInsHonourEverything() {
        let urlSession = TransportCapabilities.all.subtracting(.repeatedHeaderFields)
        #expect(URLSessionTransport().capabilities == urlSession)
        #expect(ScriptedTransport().capabilities == .all)
        #expect(MinimalTransport().capabilities == [])
        #expect(RecordingTransport(URLSessionTransport(), recorder: CallRecorder()).capabilities == urlSession)
    }

    @Test("the provider times out a transport that ignores its timeout and its cancellation, promptly")
    func providerEnforcesTimeout() async throws {
        let transport = MinimalTransport(delay: 5)
        let provider = Provider<TransferTarget>(transport: transport)
        let target = TransferTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/slow", method: .get, task: .requestPlain,
            totalTimeoutInterval: 0.2)
        let started = DispatchTime.now()

        let error = await capture { try await provider.request(target) }

        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard case .transport(let underlying, _)? = error else {
            Issue.record("expected .transport(timedOut), got \(String(describing: error))")
            return
        }
        #expect((underlying as? TransportFailure)?.kind == .timedOut)
        #expect(elapsed >= 0.2)
        // The caller got its error while the transport was still busy: it did not wait for it.
        #expect(
            transport.answered.value == 0, "the caller waited \(elapsed) s for a transport that ignores cancellation")
    }

    @Test("a cancelled caller is not held by a transport that ignores cancellation when a timeout applies")
    func cancellationWithTimeout() async throws {
        let transport = MinimalTransport(delay: 5)
        let provider = Provider<TransferTarget>(transport: transport)
        let target = TransferTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/slow", method: .get, task: .requestPlain,
            totalTimeoutInterval: 30)
        let task = Task { await capture { try await provider.request(target) } }
        #expect(await waitUntil(timeout: 5) { transport.sent.value == 1 })
        let cancelled = DispatchTime.now()

        task.cancel()
        let error = await task.value

        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - cancelled.uptimeNanoseconds) / 1e9
        guard case .cancelled? = error else {
            Issue.record("expected .cancelled, got \(String(describing: error))")
            return
        }
        // The caller got its error while the transport was still busy: it did not wait for it.
        #expect(transport.answered.value == 0, "the caller waited \(elapsed) s after cancelling")
    }
}

extension TemporaryFilesSuite {
    /// Downloads through a transport that only returns bodies in memory.
    @Suite("Bridged downloads")
    struct BridgedDownloadTests {
        @Test("a download through a whole-body transport is written to its destination")
        func downloadBridged() async throws {
            let folder = try Scratch.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let destinationURL = folder.appendingPathComponent("report.bin")
            let transport = MinimalTransport(body: Data("the report".utf8))
            let target = TransferTarget(
                baseURL: URL(string: "http://127.0.0.1:9")!, path: "/report", method: .get,
                task: .downloadDestination { _, _ in (destinationURL, []) })

            let response = try await Provider<TransferTarget>(transport: transport).request(target)

            #expect(response.fileURL == destinationURL)
            #expect(try Data(contentsOf: destinationURL) == Data("the report".utf8))
            #expect(response.data.isEmpty)
        }
    }
}

/// A transport that only does whole bodies and declares no capability: it answers 200 with
/// `body` after `delay` seconds, ignoring the request's timeout and the task's cancellation.
final class MinimalTransport: Transport, Sendable {
    let sent = Locked(0)
    /// How many sends have returned.
    let answered = Locked(0)
    private let delay: TimeInterval
    private let body: Data

    init(delay: TimeInterval = 0, body: Data = Data("ok".utf8)) {
        (self.delay, self.body) = (delay, body)
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        sent.withLock { $0 += 1 }
        if delay > 0 {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) { continuation.resume() }
            }
        }
        answered.withLock { $0 += 1 }
        return TransportResponse(
            statusCode: 200, headerFields: ["Content-Type": "application/octet-stream"], url: request.urlRequest.url!,
            data: body)
    }
}
