import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("NetworkLoggerPlugin")
struct NetworkLoggerPluginTests {
    /// Collects the logger's output, and ticks a clock by 10 ms at each reading.
    final class Capture: Sendable {
        private let lines = Locked<[String]>([])
        private let ticks = Locked(0)

        var all: [String] { lines.value }

        func configuration(_ options: NetworkLoggerPlugin.LogOptions = .default, maximumBodyBytes: Int = 4096)
            -> NetworkLoggerPlugin.Configuration
        {
            NetworkLoggerPlugin.Configuration(
                formatter: .init(entry: { identifier, message, _, date in
                    "[\(Int((date.timeIntervalSince1970 * 1000).rounded()))] \(identifier): \(message)"
                }),
                output: { _, entries in self.lines.withLock { $0.append(contentsOf: entries) } },
                logOptions: options, maximumBodyBytes: maximumBodyBytes,
                clock: {
                    let tick = self.ticks.withLock { tick in
                        tick += 1
                        return tick
                    }
                    return Date(timeIntervalSince1970: Double(tick) / 100)
                })
        }
    }

    private func provider(
        _ log: Capture, _ options: NetworkLoggerPlugin.LogOptions = .default, transport: ScriptedTransport,
        interceptor: (any RequestInterceptor)? = nil
    ) -> Provider<SampleAPI> {
        Provider<SampleAPI>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).adding(newHTTPHeaderFields: [
                    "Authorization": "Bearer s3cret-token", "Cookie": "session=s3cret-cookie",
                ])
            },
            transport: transport, plugins: [NetworkLoggerPlugin(configuration: log.configuration(options))],
            interceptor: interceptor)
    }

    @Test("a resilience policy's doings: the breaker's transition, the refusal, a retry the budget refused")
    func resilience() async throws {
        let log = Capture()
        let clock = TestClock()
        let provider = Provider<SampleAPI>(
            transport: FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10)]),
            plugins: [NetworkLoggerPlugin(configuration: log.configuration([]))], interceptor: .retryPolicy,
            options: ProviderOptions(
                resilience: ResiliencePolicy(
                    retryBudget: RetryBudget(ratio: 0, minimumPerSecond: 0),
                    circuitBreaker: CircuitBreaker(minimumThroughput: 1, consecutiveFailures: 1)), clock: clock))
        _ = await provider.result(for: .user("octocat"))
        _ = await provider.result(for: .user("octocat"))

        let lines = log.all.map { String($0.drop { $0 != "]" }.dropFirst(2)) }
        #expect(lines.contains("Circuit #1: https://api.example.com closed → open"))
        #expect(lines.contains { $0.hasPrefix("Error #1: ") && $0.hasSuffix("; no retry: retryBudget") })
        #expect(
            lines.last
                == "Error #2: GET https://api.example.com/v1/users/octocat failed in transport: The circuit breaker is "
                + "open after repeated failures; it tries again in 5.0 s. (20 ms, 1 attempt)")
    }

    @Test("a success: one entry per attempt, one for the result with its duration")
    func success() async throws {
        let log = Capture()
        let transport = ScriptedTransport(fallback: .json(200, #"{"ok":true}"#))
        _ = try await provider(log, transport: transport).request(.user("octocat"))

        #expect(
            log.all == [
                "[20] Request #1 attempt 1: GET https://api.example.com/v1/users/octocat",
                "[20] Request Headers #1: [Accept: application/json, Authorization: ***, Cookie: ***]",
                "[30] Response #1: 200 GET https://api.example.com/v1/users/octocat (20 ms, 1 attempt)",
            ])
    }

    @Test("a retried failure: both attempts, then the error with its response body")
    func retriedFailure() async throws {
        let log = Capture()
        let transport = ScriptedTransport(fallback: .json(503, #"{"error":"busy"}"#))
        let retryOnce = Retrier { _, _, context in context.attempt < 2 ? .retry : .doNotRetry }
        let provider = provider(
            log, [.requestMethod, .errorResponseBody], transport: transport, interceptor: retryOnce)
        _ = await capture { try await provider.request(.user("octocat")) }

        #expect(
            log.all == [
                "[20] Request #1 attempt 1: GET https://api.example.com/v1/users/octocat",
                "[40] Request #1 attempt 2: GET https://api.example.com/v1/users/octocat",
                "[50] Error #1: GET https://api.example.com/v1/users/octocat → HTTP 503 has a status code the target does not accept. (40 ms, 2 attempts)",
                #"[50] Response Body #1: {"error":"busy"}"#,
            ])
    }

    @Test("a cancelled request: the attempt, then the cancellation")
    func cancelled() async throws {
        let log = Capture()
        let transport = ScriptedTransport(fallback: .delayed(30, .status(200)))
        let provider = provider(log, [.formatRequestAscURL], transport: transport)
        let sent = CallRecorder()
        let spy = RecordingTransport(transport, recorder: sent)
        let spied = Provider<SampleAPI>(
            endpointClosure: provider.endpointClosure, transport: spy, plugins: provider.plugins)
        let call = Task { try await spied.request(.create(NewItem(name: "pen", count: 2))) }
        #expect(await sent.wait(for: .send))
        call.cancel()
        _ = await capture { try await call.value }

        #expect(
            log.all == [
                #"[20] Request #1 attempt 1: curl -X POST -H 'Accept: application/json' -H 'Authorization: ***' -H 'Content-Type: application/json' -H 'Cookie: ***' -d '{"count":2,"name":"pen"}' 'https://api.example.com/v1/items'"#,
                "[30] Error #1: The request was cancelled. (20 ms, 1 attempt)",
            ])
    }

    @Test("an attempt is logged as sent: the Authorization an adapter adds shows, redacted")
    func transmittedRequest() async throws {
        let log = Capture()
        let signer = Adapter { request, _ in
            var request = request
            request.setValue("Bearer adapter-s3cret", forHTTPHeaderField: "Authorization")
            request.setValue("abc", forHTTPHeaderField: "X-Trace")
            return request
        }
        let provider = Provider<SampleAPI>(
            transport: ScriptedTransport(fallback: .status(200)),
            plugins: [NetworkLoggerPlugin(configuration: log.configuration(.default))], interceptor: signer)
        _ = try await provider.request(.user("octocat"))

        #expect(
            log.all.contains("[20] Request Headers #1: [Accept: application/json, Authorization: ***, X-Trace: abc]"))
        #expect(!log.all.joined().contains("adapter-s3cret"))
    }

    @Test("a custom formatter gets the whole body, and what it returns is cut (Moya's pretty-JSON formatter)")
    func formatThenCut() async throws {
        let log = Capture()
        let items = (0..<200).map { "{\"id\":\($0)}" }.joined(separator: ",")
        let body = "[\(items)]"
        let received = Locked<[Int]>([])
        var configuration = log.configuration([.successResponseBody], maximumBodyBytes: 64)
        configuration.formatter.responseData = { data in
            received.withLock { $0.append(data.count) }
            let json = try? JSONSerialization.jsonObject(with: data)
            let pretty = json.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.prettyPrinted]) }
            return pretty.map { String(decoding: $0, as: UTF8.self) } ?? "not JSON"
        }
        let provider = Provider<SampleAPI>(
            transport: ScriptedTransport(fallback: .json(200, body)),
            plugins: [NetworkLoggerPlugin(configuration: configuration)])
        _ = try await provider.request(.user("octocat"))

        #expect(received.value == [body.utf8.count])
        let entry = try #require(log.all.first { $0.contains("Response Body") })
        #expect(entry.contains("[\n"))
        #expect(!entry.contains("not JSON"))
        #expect(entry.contains(" more bytes)"))
    }

    @Test("no secret header value appears in any output with the default redaction")
    func noSecrets() async throws {
        let log = Capture()
        let transport = ScriptedTransport(
            fallback: .status(200, body: Data("{}".utf8), headers: ["Set-Cookie": "session=s3cret-set", "X-Ok": "1"]))
        for options: NetworkLoggerPlugin.LogOptions in [.verbose, [.formatRequestAscURL, .responseHeaders]] {
            _ = try await provider(log, options, transport: transport).request(.create(NewItem(name: "a", count: 1)))
        }
        let output = log.all.joined(separator: "\n")
        #expect(!output.contains("s3cret"))
        #expect(output.contains("Set-Cookie: ***") && output.contains("X-Ok: 1"))
    }

    /// An OAuth token endpoint: an authorization code exchanged, or a refresh token, in a form.
    enum OAuth: TargetType {
        case exchange, refresh
        var baseURL: URL { URL(string: "https://auth.example.com")! }
        var path: String { "/oauth/token" }
        var method: HTTPMethod { .post }
        var headers: [String: String]? { nil }
        var task: HTTPTask {
            let form: [String: any Sendable] =
                switch self {
                case .exchange:
                    [
                        "grant_type": "authorization_code", "code": "s3cret-code", "client_id": "app",
                        "client_secret": "s3cret-client", "code_verifier": "s3cret-verifier",
                        "redirect_uri": "app://callback",
                    ]
                case .refresh: ["grant_type": "refresh_token", "refresh_token": "s3cret-refresh", "client_id": "app"]
                }
            return .requestParameters(parameters: form, encoding: URLEncoding.httpBody)
        }
    }

    @Test("an OAuth code exchange and refresh: code, verifier, client secret and tokens never appear, in any form")
    func oauthFormsRedacted() async throws {
        let log = Capture()
        let transport = ScriptedTransport(
            fallback: .status(
                200,
                body: Data(#"{"access_token":"s3cret-access","refresh_token":"s3cret-new","expires_in":3600}"#.utf8),
                headers: ["Content-Type": "application/json"]))
        for options: NetworkLoggerPlugin.LogOptions in [.verbose, [.formatRequestAscURL, .successResponseBody]] {
            let provider = Provider<OAuth>(
                transport: transport, plugins: [NetworkLoggerPlugin(configuration: log.configuration(options))])
            _ = try await provider.request(.exchange)
            _ = try await provider.request(.refresh)
        }
        let output = log.all.joined(separator: "\n")
        #expect(!output.contains("s3cret"), "\(output)")
        #expect(output.contains("grant_type=authorization_code") && output.contains("client_id=app"))
        #expect(output.contains("expires_in"))
    }

    @Test("long bodies are cut, binary bodies summarised")
    func bodies() async throws {
        let log = Capture()
        let long = String(repeating: "é", count: 100)  // 200 bytes, cut in the middle of a character
        let transport = ScriptedTransport()
        transport.enqueue([.status(200, body: Data(long.utf8))], for: SampleAPI.user("a"))
        transport.enqueue(
            [.status(200, body: Data([0x89, 0x50, 0x4E, 0x47]), headers: ["Content-Type": "image/png"])],
            for: SampleAPI.user("b"))
        transport.enqueue([.status(200, body: Data([0xFF, 0x00, 0xFE]))], for: SampleAPI.user("c"))
        let provider = Provider<SampleAPI>(
            transport: transport,
            plugins: [
                NetworkLoggerPlugin(configuration: log.configuration([.successResponseBody], maximumBodyBytes: 51))
            ])
        for name in ["a", "b", "c"] { _ = try await provider.request(.user(name)) }

        let bodies = log.all.filter { $0.contains("Response Body") }.map {
            $0.components(separatedBy: ": ").dropFirst().joined(separator: ": ")
        }
        #expect(
            bodies == [
                String(repeating: "é", count: 25) + "… (150 more bytes)", "<4 bytes of image/png>",
                "<3 bytes of binary data>",
            ])
    }
}

@Suite("BodySummary")
struct BodySummaryTests {
    @Test("text, cut characters, binary and empty bodies")
    func summaries() {
        #expect(BodySummary.text(Data()) == "")
        #expect(BodySummary.text(Data("héllo".utf8)) == "héllo")
        #expect(BodySummary.text(Data("hé".utf8).dropLast()) == "h")
        #expect(BodySummary.text(Data([0x41, 0xFF])) == "<2 bytes of binary data>")
        #expect(BodySummary.text(Data([0x00, 0x01])) == "<2 bytes of binary data>")
    }
}
