import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("RetryPolicy")
struct RetryPolicyTests {
    /// One row of the decision table.
    struct Row: Sendable, CustomTestStringConvertible {
        let method: HTTPMethod
        let failure: Failure
        let attempt: Int
        let retryAfter: String?
        let expected: Double?  // the delay, or nil for doNotRetry

        enum Failure: Sendable {
            case status(Int)
            case transport(URLError.Code)
            case other
        }

        var testDescription: String { "\(method) \(failure) attempt \(attempt) Retry-After \(retryAfter ?? "-")" }

        init(_ method: HTTPMethod, _ failure: Failure, attempt: Int = 1, retryAfter: String? = nil, _ expected: Double?)
        {
            self.method = method
            self.failure = failure
            self.attempt = attempt
            self.retryAfter = retryAfter
            self.expected = expected
        }
    }

    static let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    static let rows: [Row] = [
        Row(.get, .status(503), 0.5),
        Row(.get, .status(503), attempt: 2, 1.0),
        Row(.get, .status(503), attempt: 3, nil),  // limit 2: at most 3 attempts
        Row(.get, .status(500), 0.5), Row(.put, .status(502), 0.5), Row(.delete, .status(504), 0.5),
        Row(.head, .status(408), 0.5), Row(.options, .status(429), 0.5), Row(.trace, .status(503), 0.5),
        Row(.post, .status(503), nil), Row(.patch, .status(503), nil),  // not idempotent
        Row(.get, .status(404), nil), Row(.get, .status(401), nil), Row(.get, .status(501), nil),
        Row(.get, .transport(.networkConnectionLost), 0.5), Row(.get, .transport(.timedOut), 0.5),
        Row(.get, .transport(.cannotConnectToHost), 0.5), Row(.get, .transport(.dnsLookupFailed), 0.5),
        Row(.get, .transport(.cannotFindHost), 0.5), Row(.get, .transport(.notConnectedToInternet), 0.5),
        Row(.get, .transport(.badURL), nil), Row(.get, .transport(.cancelled), nil), Row(.get, .other, nil),
        Row(.get, .status(503), retryAfter: "7", 7),
        Row(.get, .status(429), retryAfter: "0", 0),
        Row(.get, .status(503), retryAfter: "Tue, 14 Nov 2023 22:13:50 GMT", 30),
        Row(.get, .status(503), retryAfter: "Tuesday, 14-Nov-23 22:14:20 GMT", 60),
        Row(.get, .status(503), retryAfter: "Tue Nov 14 22:13:30 2023", 10),
        Row(.get, .status(503), retryAfter: "Tue, 14 Nov 2023 22:00:00 GMT", 0),  // in the past
        Row(.get, .status(503), retryAfter: "61", nil),  // longer than the 60 s maximum
        Row(.get, .status(503), retryAfter: "soon", 0.5),  // unreadable: the computed delay
        Row(.post, .status(503), retryAfter: "1", nil),
    ]

    @Test("decision table", arguments: rows)
    func decision(row: Row) {
        var request = URLRequest(url: URL(string: "https://example.com/x")!)
        request.httpMethod = row.method.rawValue
        let headers = row.retryAfter.map { ["Retry-After": $0] } ?? [:]
        let http = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: headers)!
        let error: CourierError =
            switch row.failure {
            case .status(let code):
                .statusCode(
                    Response(
                        statusCode: code, data: Data(), request: request,
                        response: HTTPURLResponse(
                            url: request.url!, statusCode: code, httpVersion: nil, headerFields: headers)!))
            case .transport(let code): .transport(URLError(code), request: request)
            case .other: .underlying(URLError(.unknown), Response(statusCode: 503, data: Data(), response: http))
            }

        // Without jitter, and with the random pick at 0 (no spread of a Retry-After): the delays as computed.
        let result = RetryPolicy(jitter: .none).decision(
            for: .init(request: request, error: error, number: row.attempt), random: 0, now: Self.now)

        switch (result, row.expected) {
        case (.retryWithDelay(let delay), let expected?): #expect(abs(delay - expected) < 0.001)
        case (.doNotRetry, nil): break
        default: Issue.record("got \(result), expected \(row.expected.map { "retryWithDelay(\($0))" } ?? "doNotRetry")")
        }
    }

    @Test("exponential backoff and jitter")
    func delays() {
        #expect(RetryPolicy().jitter == .full)
        let policy = RetryPolicy(exponentialBackoffBase: 3, exponentialBackoffScale: 0.2, jitter: .none)
        #expect(
            [1, 2, 3].map { policy.delay(beforeRetry: $0, random: 0.9) }.map { ($0 * 1000).rounded() } == [
                200, 600, 1800,
            ])
        let full = RetryPolicy(jitter: .full)
        #expect(full.delay(beforeRetry: 2, random: 0) == 0)
        #expect(full.delay(beforeRetry: 2, random: 0.25) == 0.25)
        let proportional = RetryPolicy(jitter: .proportional(0.2))
        #expect(abs(proportional.delay(beforeRetry: 1, random: 0) - 0.4) < 1e-9)
        #expect(abs(proportional.delay(beforeRetry: 1, random: 1) - 0.6) < 1e-9)
        #expect(abs(proportional.delay(beforeRetry: 1, random: 0.5) - 0.5) < 1e-9)
    }

    @Test(
        "full jitter by default: delays spread over [0, computed); a Retry-After gets up to a tenth more, at most 1 s")
    func defaultJitter() {
        var request = URLRequest(url: URL(string: "https://example.com/x")!)
        request.httpMethod = "GET"
        let unavailable = CourierError.statusCode(Response(statusCode: 503, data: Data(), request: request))
        let policy = RetryPolicy()
        func delay(_ result: RetryResult) -> TimeInterval? {
            if case .retryWithDelay(let seconds) = result { seconds } else { nil }
        }
        let delays = [0, 0.5, 0.999].map { random in
            delay(
                policy.decision(
                    for: .init(request: request, error: unavailable, number: 2), random: random, now: Self.now))
        }
        #expect(delays == [0, 0.5, 0.999])

        func asking(_ value: String) -> CourierError {
            .statusCode(
                Response(
                    statusCode: 503, data: Data(), request: request,
                    response: HTTPURLResponse(
                        url: request.url!, statusCode: 503, httpVersion: nil, headerFields: ["Retry-After": value])!))
        }
        let short = policy.decision(
            for: .init(request: request, error: asking("2"), number: 1), random: 0.5, now: Self.now)
        let long = policy.decision(
            for: .init(request: request, error: asking("30"), number: 1), random: 0.5, now: Self.now)
        #expect(delay(short) == 2.1)
        #expect(delay(long) == 30.5)
    }

    @Test("custom limit, methods and codes; the connection-lost variant")
    func customSettings() {
        var request = URLRequest(url: URL(string: "https://example.com")!)
        request.httpMethod = "POST"
        let lost = CourierError.transport(URLError(.networkConnectionLost), request: request)
        let unavailable = CourierError.statusCode(Response(statusCode: 503, data: Data(), request: request))
        let custom = RetryPolicy(retryLimit: 5, jitter: .none, retryableHTTPMethods: [.post])
        guard
            case .retryWithDelay(8) = custom.decision(
                for: .init(request: request, error: lost, number: 5), random: 0, now: Date())
        else {
            Issue.record("expected a fifth retry after 8 s")
            return
        }

        request.httpMethod = "GET"
        let connectionLost: RetryPolicy = .connectionLostRetryPolicy
        let retried = connectionLost.decision(
            for: .init(
                request: request, error: .transport(URLError(.networkConnectionLost), request: request), number: 1),
            random: 0, now: Date())
        guard case .retryWithDelay = retried else {
            Issue.record("expected a retry, got \(retried)")
            return
        }
        guard
            case .doNotRetry = connectionLost.decision(
                for: .init(request: request, error: unavailable, number: 1), random: 0, now: Date())
        else {
            Issue.record("expected no retry for a 503")
            return
        }
    }

    @Test("a 503 with Retry-After: 1 is retried after at least a second, and succeeds")
    func retryAfterIntegration() async throws {
        let calls = Locked(0)
        let server = try LoopbackServer { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call == 1
                ? ServerReply(status: 503, headers: ["Retry-After": "1"]) : .json(#"{"ok":true}"#)
        }
        let provider = Provider<OrderTarget>(interceptor: .retryPolicy)
        let start = Date()

        let response = try await provider.request(OrderTarget(baseURL: server.baseURL, path: "/status"))

        #expect(response.statusCode == 200)
        #expect(Date().timeIntervalSince(start) >= 1)
        #expect(calls.value == 2)
    }

    @Test("leading-dot sugar composes the policy with other interceptors")
    func sugar() {
        let provider = Provider<SampleAPI>(interceptor: .retryPolicy(retryLimit: 4))
        #expect((provider.interceptor as? RetryPolicy)?.retryLimit == 4)
        let composite = Interceptor(interceptors: [.retryPolicy, .connectionLostRetryPolicy])
        #expect(composite.retriers.count == 2)
    }
}
