import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// No secret in any text: every loggable path, with secrets planted in the URL's user information,
/// headers, query items and bodies both ways, scanned in every logger's output, every cURL command,
/// and every error's and response's descriptions.
@Suite("Secret redaction")
struct SecretRedactionTests {
    static let secrets = [
        "URLPASS1", "QTOKEN1", "AUTHTOK1", "APIKEY1", "COOKIE1", "PROXY1", "BODYPW1", "SETCOOKIE1", "RESPTOK1",
        "FORMPW1",
    ]

    /// A target on the loopback server, through a base URL with a password, with secret headers,
    /// a secret query item and a secret in its JSON or form body.
    struct LeakTarget: TargetType {
        let baseURL: URL
        var path: String
        var method: HTTPMethod = .post
        var form = false
        var task: HTTPTask {
            .requestCompositeParameters(
                bodyParameters: form ? ["password": "FORMPW1", "name": "x"] : ["password": "BODYPW1", "name": "x"],
                bodyEncoding: form ? URLEncoding.httpBody : JSONEncoding.default,
                urlParameters: ["access_token": "QTOKEN1", "page": 2])
        }
        var headers: [String: String]? {
            [
                "Authorization": "Bearer AUTHTOK1", "X-API-Key": "APIKEY1", "Cookie": "sid=COOKIE1",
                "Proxy-Authorization": "Basic PROXY1", "Accept": "application/json",
            ]
        }
        var validationType: ValidationType { .successCodes }
    }

    struct Failure: Error {}

    private func server() throws -> LoopbackServer {
        let secretBody = Data(#"{"access_token":"RESPTOK1","user":"ann"}"#.utf8)
        return try LoopbackServer { request in
            let headers = ["Set-Cookie": "session=SETCOOKIE1; HttpOnly", "Content-Type": "application/json"]
            switch request.path {
            case "/ok": return ServerReply(headers: headers, body: secretBody)
            case "/fail": return ServerReply(status: 500, headers: headers, body: secretBody)
            case "/redirect": return ServerReply(status: 302, headers: ["Location": "/ok"])
            case "/close": return .closeConnection
            default: return ServerReply(status: 503, headers: headers, body: secretBody)
            }
        }
    }

    @Test("every path, every output: no planted secret appears")
    func everyPath() async throws {
        let server = try server()
        defer { server.stop() }
        let lines = Locked<[String]>([])
        let loggers = [NetworkLoggerPlugin.LogOptions.default, .verbose, [.formatRequestAscURL, .verbose]].map {
            options in
            NetworkLoggerPlugin(
                configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }, logOptions: options))
        }
        let base = URL(string: "http://ann:URLPASS1@127.0.0.1:\(server.port)")!
        let retrier = Retrier { _, error, context in
            switch context.target {
            case let target as LeakTarget where target.path == "/busy" && context.attempt == 1: .retry
            case let target as LeakTarget where target.path == "/other": .doNotRetryWithError(Failure())
            default: error.isCancellation ? .doNotRetry : .doNotRetry
            }
        }
        let adapter = Adapter { request, context in
            guard (context.target as? LeakTarget)?.path == "/adapt" else { return request }
            throw Failure()
        }
        let provider = Provider<LeakTarget>(
            plugins: loggers, interceptor: Interceptor(adapters: [adapter], retriers: [retrier]))

        var texts: [String] = []
        for path in ["/ok", "/fail", "/busy", "/redirect", "/close", "/adapt", "/other"] {
            for form in [false, true] {
                texts += describe(
                    await outcome { try await provider.request(LeakTarget(baseURL: base, path: path, form: form)) })
            }
        }
        let mapped = try await provider.request(LeakTarget(baseURL: base, path: "/ok"))
        texts += describe(.failure(#expect(throws: CourierError.self) { try mapped.map(Int.self) }!))
        texts += describe(await outcome { try await self.cancelled(provider, base) })
        texts += describe(await outcome { try await self.unbuildable() })
        texts += describe(await outcome { try await self.unprepared(base) })
        let request = try provider.endpoint(LeakTarget(baseURL: base, path: "/ok")).urlRequest()
        texts += [request.cURLDescription(), request.cURLDescription(maximumBodyBytes: 12)]

        let all = lines.value + texts
        #expect(all.count > 40)
        #expect(all.contains { $0.contains("***") })
        for secret in Self.secrets {
            let leaks = all.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) leaked in: \(leaks.first ?? "")")
        }
    }

    private func outcome(_ body: () async throws -> Response) async -> Result<Response, CourierError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error as? CourierError ?? .underlying(error, nil))
        }
    }

    private func describe(_ result: Result<Response, CourierError>) -> [String] {
        switch result {
        case .success(let response):
            [response.description, response.debugDescription, String(reflecting: response)]
        case .failure(let error):
            [
                error.description, error.debugDescription, error.errorDescription ?? "", error.localizedDescription,
                String(reflecting: error), "\(error)",
            ] + (error.response.map { [$0.debugDescription] } ?? [])
        }
    }

    private func cancelled(_ provider: Provider<LeakTarget>, _ base: URL) async throws(CourierError) -> Response {
        let task = Task { try await provider.request(LeakTarget(baseURL: base, path: "/ok")) }
        task.cancel()
        do {
            return try await task.value
        } catch {
            throw error as? CourierError ?? .underlying(error, nil)
        }
    }

    private func unbuildable() async throws(CourierError) -> Response {
        let provider = Provider<LeakTarget>(endpointClosure: { target in
            Endpoint(
                url: "http://ann:URLPASS1@bad host/x?access_token=QTOKEN1",
                sampleResponseClosure: { .networkResponse(200, Data()) },
                method: .get, task: .requestPlain, httpHeaderFields: target.headers)
        })
        return try await provider.request(LeakTarget(baseURL: URL(string: "http://h")!, path: "/x"))
    }

    /// A plugin whose `prepare` fails.
    struct FailingPlugin: PluginType {
        func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
            throw Failure()
        }
    }

    private func unprepared(_ base: URL) async throws(CourierError) -> Response {
        try await Provider<LeakTarget>(plugins: [FailingPlugin()]).request(LeakTarget(baseURL: base, path: "/ok"))
    }

    @Test("redaction of URLs, query items and bodies")
    func redaction() {
        let redaction = Redaction.default
        #expect(
            redaction.url(URL(string: "https://ann:pw@h.example/p?access_token=t&page=2&API_KEY=k")!)
                == "https://***@h.example/p?access_token=***&page=2&API_KEY=***")
        #expect(redaction.url(URL(string: "https://h.example/p?page=2")!) == "https://h.example/p?page=2")
        #expect(redaction.urlString("http://u:p@bad host/x?token=t#f") == "http://***@bad host/x?token=***#f")
        let json = redaction.body(Data(#"{"a":[{"Password":"x"}],"b":1}"#.utf8), contentType: "application/json")
        #expect(String(decoding: json, as: UTF8.self) == #"{"a":[{"Password":"***"}],"b":1}"#)
        let form = redaction.body(
            Data("user=ann&password=x%20y".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(String(decoding: form, as: UTF8.self) == "user=ann&password=***")
        #expect(redaction.headerValue("x-api-key", "k") == "***")
        #expect(redaction.headerValue("Accept", "text/plain") == "text/plain")
    }

    @Test("a combining mark after a separator hides neither the password nor a credential value")
    func combiningMarks() {
        // "@" or "=" followed by a combining mark is one character, yet a separator: text
        // that URLComponents cannot parse is redacted by hand, on Unicode scalars.
        let texts = [
            "http://ann:SECRETPW@\u{0301}bad host/x", "http://bad host/x?a=1&access_token=\u{0301}SECRETPW",
            "http://ann:SECRETPW@\u{0301}bad host/x?access_token=\u{0301}SECRETPW",
        ]
        for text in texts {
            let shown = Redaction.default.urlString(text)
            #expect(Data(shown.utf8).range(of: Data("SECRETPW".utf8)) == nil, "\(shown)")
        }
    }
}
