import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Header injection: no request with a CR, LF, NUL or other control character in a header (or a
/// name or method that is not a token) is ever sent, whoever set it.
@Suite("HeaderFieldRules")
struct HeaderFieldRulesTests {
    private static let injected = "ok\r\nX-Injected: evil"

    /// `request` with one more header. Set through `allHTTPHeaderFields`: on Linux,
    /// `setValue(_:forHTTPHeaderField:)` silently ignores a value with a control character, but a
    /// whole dictionary is taken as it is.
    static func adding(_ name: String, _ value: String, to request: URLRequest) -> URLRequest {
        var request = request
        request.allHTTPHeaderFields = (request.allHTTPHeaderFields ?? [:]).merging([name: value]) { $1 }
        return request
    }

    /// A plugin that sets one header in `prepare`.
    struct HeaderPlugin: PluginType {
        let name: String
        let value: String
        func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
            HeaderFieldRulesTests.adding(name, value, to: request)
        }
    }

    private func expectRefused(
        _ expected: RequestValidationError, headers: [String: String]? = nil, method: HTTPMethod = .get,
        plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil
    ) async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        defer { server.stop() }
        let provider = Provider<OrderTarget>(plugins: plugins, interceptor: interceptor)
        let target = OrderTarget(baseURL: server.baseURL, method: method, headers: headers)
        let error = await #expect(throws: CourierError.self) { try await provider.request(target) }
        #expect(error?.stage == .adapting)
        #expect(error?.underlyingError as? RequestValidationError == expected)
        #expect(server.requests.isEmpty)
        let text = [error?.description, error?.debugDescription, error?.errorDescription].compactMap { $0 }
        #expect(!text.joined().contains("evil"), "the value never reaches an error's text")
        #expect(!text.joined().contains("\r\n"), "an error's text stays on one line")
    }

    @Test("a CR/LF in a target's header value is never sent")
    func targetValue() async throws {
        try await expectRefused(
            .invalidHeaderValue(name: "X-Custom", problem: .carriageReturn), headers: ["X-Custom": Self.injected])
    }

    @Test("a LF, a NUL or another control character in a value set by a plugin is never sent")
    func pluginValue() async throws {
        for (value, problem) in [
            ("a\nX-Injected: evil", HeaderValueProblem.lineFeed), ("a\u{0}evil", .nul),
            ("a\u{1B}evil", .controlCharacter),
        ] {
            try await expectRefused(
                .invalidHeaderValue(name: "X-Plugin", problem: problem),
                plugins: [HeaderPlugin(name: "X-Plugin", value: value)])
        }
    }

    @Test("a CR/LF in a value set by an adapter is never sent, and the retry policy does not retry it")
    func adapterValue() async throws {
        let adapter = Adapter { request, _ in Self.adding("Authorization", "Bearer \(Self.injected)", to: request) }
        try await expectRefused(
            .invalidHeaderValue(name: "Authorization", problem: .carriageReturn),
            interceptor: Interceptor(adapters: [adapter], retriers: [RetryPolicy()]))
    }

    @Test("a header name that is not a token, and a method that is not a token, are never sent")
    func names() async throws {
        for name in ["X-Bad\r\nX-Injected: 1", "X Space", "X:Colon", "X(Paren)"] {
            try await expectRefused(.invalidHeaderName(name), plugins: [HeaderPlugin(name: name, value: "1")])
        }
        let method = HTTPMethod(rawValue: "GET /smuggled HTTP/1.1\r\nX: evil")
        try await expectRefused(.invalidMethod(method), method: method)
    }

    @Test("a stubbed target is checked the same way: the same error, no stub answer")
    func stubbed() async throws {
        let provider = Provider<OrderTarget>(stubClosure: Provider.immediatelyStub)
        let target = OrderTarget(baseURL: URL(string: "https://stub.invalid")!, headers: ["X-Custom": Self.injected])
        let error = await #expect(throws: CourierError.self) { try await provider.request(target) }
        #expect(
            error?.underlyingError as? RequestValidationError
                == .invalidHeaderValue(name: "X-Custom", problem: .carriageReturn))
    }

    @Test("a refused header or method cannot forge a line in the log: the logger logs only what passed the check")
    func logLines() async throws {
        let lines = Locked<[String]>([])
        let loggers = [NetworkLoggerPlugin.LogOptions.verbose, [.formatRequestAscURL]].map { options in
            NetworkLoggerPlugin(
                configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }, logOptions: options))
        }
        let provider = Provider<OrderTarget>(stubClosure: Provider.immediatelyStub, plugins: loggers)
        let target = OrderTarget(
            baseURL: URL(string: "https://stub.invalid")!, method: HTTPMethod(rawValue: "GET\r\nX-Forged: 1"),
            headers: ["X-Custom": Self.injected, "X-Bad\nName": "1"])
        _ = await #expect(throws: CourierError.self) { try await provider.request(target) }

        // No attempt entry (nothing was sent), one error entry per logger.
        #expect(lines.value.count == 2)
        #expect(lines.value.allSatisfy { $0.contains("Error #") })
        for line in lines.value {
            #expect(!line.contains("\r") && !line.contains("\n"), "\(line)")
        }
    }

    @Test("framing fields are dropped in any case; other names of the same lengths are kept")
    func framingInAnyCase() throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/items")!)
        let dropped = ["CONTENT-LENGTH", "Transfer-encoding", "tE", "HOST", "Keep-Alive", "PROXY-Connection"]
        // Names of the lengths of te, host, keep-alive, content-length and proxy-connection.
        let kept = ["Tf", "Hoss", "Keep-Alivf", "Content-Lengti", "X-Request-ID-Xyz"]
        for name in dropped + kept { request.setValue("1", forHTTPHeaderField: name) }

        let checked = try HeaderFieldRules.checked(request)
        let names = Set((checked.allHTTPHeaderFields ?? [:]).keys.map { $0.lowercased() })

        #expect(names.isDisjoint(with: dropped.map { $0.lowercased() }))
        #expect(names == Set(kept.map { $0.lowercased() }))
    }

    @Test("tokens and values: the RFC 9110 table")
    func table() {
        #expect(HeaderFieldRules.isToken("X-Request-ID"))
        #expect(HeaderFieldRules.isToken("!#$%&'*+-.^_`|~09azAZ"))
        for bad in ["", "a b", "a:b", "a\tb", "a\"b", "a(b)", "a/b", "é", "a\u{7F}"] {
            #expect(!HeaderFieldRules.isToken(bad), "\(bad.debugDescription)")
        }
        #expect(HeaderFieldRules.problem(inValue: "text/plain; q=0.5\tand UTF-8 ü") == nil)
        #expect(HeaderFieldRules.problem(inValue: "a\rb") == .carriageReturn)
        #expect(HeaderFieldRules.problem(inValue: "a\nb") == .lineFeed)
        #expect(HeaderFieldRules.problem(inValue: "a\u{0}b") == .nul)
        #expect(HeaderFieldRules.problem(inValue: "a\u{7F}b") == .controlCharacter)
    }
}
