import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Deadlines")
struct DeadlineTests {
    @Test("a sub-second attempt timeout is honoured, never early (URLSession on Linux would fire at once)")
    func subSecond() async throws {
        let server = try LoopbackServer { _ in
            .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8)), .stall])
        }
        let start = Date()
        let error = await capture {
            try await Provider<FaultTarget>().request(FaultTarget(baseURL: server.baseURL, timeout: 0.3))
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        // URLSession on Linux truncates 0.3 s to 0 and fails at once; Courier's own clock never
        // fires early. (No upper bound: a loaded machine may deliver the timer late.)
        #expect(elapsed >= 0.3, "took \(elapsed) s")
        #expect(URLSessionTransport.engineTimeout(0.3) == 1)
    }

    @Test("a fast answer within a sub-second timeout succeeds")
    func fastEnough() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        let response = try await Provider<FaultTarget>().request(FaultTarget(baseURL: server.baseURL, timeout: 0.5))
        #expect(response.statusCode == 200)
    }

    @Test("the total timeout bounds retries: no retry starts after it")
    func totalAcrossRetries() async throws {
        struct Target: TargetType {
            let baseURL: URL
            var path: String { "/busy" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var validationType: ValidationType { .successCodes }
            var totalTimeoutInterval: TimeInterval? { 0.5 }
        }
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        let provider = Provider<Target>(
            interceptor: .retryPolicy(retryLimit: 10, exponentialBackoffScale: 0.2, jitter: .none))
        let error = await capture { try await provider.request(Target(baseURL: server.baseURL)) }
        // Either no retry fits in the time left (the last 503 is kept), or the deadline cut the
        // attempt in flight short: both end the request by the deadline.
        let timedOut = (error?.underlyingError as? TransportFailure)?.kind == .timedOut
        #expect(error?.response?.statusCode == 503 || timedOut, "\(String(describing: error))")
        // Unbounded, ten retries after 0.2 s, 0.4 s, 0.8 s… would make eleven attempts; the deadline
        // allows at most three (at 0 s, 0.2 s and 0.6 s), and a busy machine only fewer.
        #expect(server.requests.count <= 3)
    }

    @Test("a stub delayed past the attempt timeout times out like the network")
    func stubTimesOut() async throws {
        struct Slow: TargetType {
            var baseURL: URL { URL(string: "https://stub.invalid")! }
            var path: String { "/slow" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var timeoutInterval: TimeInterval? { 0.1 }
        }
        let provider = Provider<Slow>(stubClosure: Provider.delayedStub(30))
        let start = Date()
        let error = await capture { try await provider.request(Slow()) }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        // Well under the stub's 30 s delay: the timeout ended the wait, whatever the machine's load.
        #expect(Date().timeIntervalSince(start) < 20)
    }
}

extension TemporaryFilesSuite.FaultInjectionTests {
    /// On Linux toolchains up to 6.3.1, FoundationNetworking stops the whole process when a server
    /// closes the connection in the middle of the response headers (swift-corelibs-foundation
    /// #5285, fixed upstream by #5286). Nothing in the process can catch that, so this fault runs
    /// in a child process: the outcome must be a typed `connectionLost` (a fixed toolchain), or
    /// that exact, known crash — never a hang, never anything else.
    @Test("close mid-headers: a typed error, or FoundationNetworking's known crash, in a child process")
    func closeMidHeaders() async throws {
        let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\nContent-Len") }
        let probe = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("CourierProbe")
        let process = Process()
        process.executableURL =
            FileManager.default.fileExists(atPath: probe.path)
            ? probe
            : URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("CourierProbe")
        process.arguments = [server.baseURL.appendingPathComponent("fault").absoluteString]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let exited = CallRecorder()
        process.terminationHandler = { _ in exited.record(.send) }
        try process.run()
        let ended = await exited.wait(for: .send, timeout: 30)
        if !ended { process.terminate() }  // a hung probe must not hang the suite on its pipe
        #expect(ended, "the probe did not end within 30 s")
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let typed = process.terminationStatus == 0 && text.contains("failure transport connectionLost")
        let knownCrash = text.contains("Transfer completed, but there's no response")
        #expect(
            typed || knownCrash, "unexpected outcome: status \(process.terminationStatus), output: \(text.prefix(300))")
    }
}

/// Time intervals that reach an engine: infinity means no limit and never reaches libcurl as it
/// is; NaN, negative and zero are refused with a typed error before anything is sent.
@Suite("Time intervals")
struct TimeIntervalTests {
    @Test("an infinite attempt or total timeout means no limit, also when an adapter sets it")
    func infinity() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let adapter = Adapter { request, _ in
            var request = request
            request.timeoutInterval = .infinity
            return request
        }
        let provider = Provider<FaultTarget>(interceptor: adapter)
        let response = try await provider.request(FaultTarget(baseURL: server.baseURL, timeout: .infinity))
        #expect(response.statusCode == 200)
        // Not URLRequest's 60 s default: infinity reaches the transport, which clamps it.
        let built = try provider.endpoint(FaultTarget(baseURL: server.baseURL, timeout: .infinity)).urlRequest()
        #expect(built.timeoutInterval == .infinity)
        let endpoint = Provider<FaultTarget>.defaultEndpointMapping(for: FaultTarget(baseURL: server.baseURL))
            .replacing(options: .init(timeoutInterval: .infinity, totalTimeoutInterval: .infinity))
        let total = try await Provider<FaultTarget>(endpointClosure: { _ in endpoint }).request(
            FaultTarget(baseURL: server.baseURL))
        #expect(total.statusCode == 200)
        #expect(URLSessionTransport.engineTimeout(.infinity) == URLSessionTransport.maximumEngineTimeout)
        #expect(URLSessionTransport.engineTimeout(.nan) == URLSessionTransport.maximumEngineTimeout)
        #expect(URLSessionTransport.engineTimeout(0.3) == 1)
    }

    @Test("NaN, negative and zero timeouts are refused before anything is sent", arguments: [Double.nan, -1, 0])
    func invalid(value: Double) async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let error = await #expect(throws: CourierError.self) {
            try await Provider<FaultTarget>().request(FaultTarget(baseURL: server.baseURL, timeout: value))
        }
        guard case .invalidTimeInterval(let name, _)? = error?.underlyingError as? RequestValidationError else {
            Issue.record("not an invalid time interval: \(String(describing: error))")
            return
        }
        #expect(name == "timeoutInterval")
        #expect(error?.stage == .building)
        #expect(server.requests.isEmpty)
    }

    @Test("stub and scripted delays: NaN and negative are errors, infinity waits for the timeout")
    func delays() async throws {
        let target = FaultTarget(baseURL: URL(string: "https://stub.invalid")!)
        for delay in [Double.nan, -1] {
            let stubbed = Provider<FaultTarget>(stubClosure: { _ in .delayed(seconds: delay) })
            let error = await #expect(throws: CourierError.self) { try await stubbed.request(target) }
            #expect(error?.underlyingError is RequestValidationError)
            let scripted = ScriptedTransport(fallback: .delayed(delay, .json(200, "{}")))
            let scriptedError = await #expect(throws: CourierError.self) {
                try await Provider<FaultTarget>(transport: scripted).request(target)
            }
            #expect(scriptedError?.underlyingError as? ScriptedTransportError == .invalidDelay(delay) || delay.isNaN)
        }
        let forever = ScriptedTransport(fallback: .delayed(.infinity, .json(200, "{}")))
        let timedOut = await #expect(throws: CourierError.self) {
            try await Provider<FaultTarget>(transport: forever).request(
                FaultTarget(baseURL: URL(string: "https://stub.invalid")!, timeout: 0.05))
        }
        #expect((timedOut?.underlyingError as? TransportFailure)?.kind == .timedOut)
    }
}
