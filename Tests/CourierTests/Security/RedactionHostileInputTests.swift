import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Hostile inputs for redaction, redirects, error texts and target names, found by a review of
/// issue 56's fixes (each failed before its fix): every test expects no secret in what is shown.
@Suite("Redaction of hostile inputs")
struct HostileRedactionTests {
    let r = Redaction.default

    func bodyText(_ body: String, _ type: String?) -> String {
        String(decoding: r.body(Data(body.utf8), contentType: type), as: UTF8.self)
    }

    @Test("P1 NDJSON: a line that is not JSON with an odd quote hides the next line's token")
    func ndjsonNonJSONLine() {
        let body = "event \"started\n{\"token\":\"SEC1\"}\n{\"id\":2}\n"
        let shown = bodyText(body, "application/x-ndjson")
        #expect(!shown.contains("SEC1"))
        let cutLine = bodyText("{\"a\":\"x\\\n{\"token\":\"SEC1b\"}\n", "application/x-ndjson")
        #expect(!cutLine.contains("SEC1b"))
    }

    @Test("P2 server-sent events: a token in an event's JSON")
    func serverSentEvents() {
        let shown = bodyText("event: token\ndata: {\"access_token\":\"SEC2\"}\n\n", "text/event-stream")
        #expect(!shown.contains("SEC2"))
    }

    @Test("P3 a form-encoded token answer labelled text/plain, and a form body with no Content-Type")
    func formAsTextPlain() {
        let a = bodyText("access_token=SEC3a&token_type=bearer", "text/plain; charset=utf-8")
        let b = bodyText("user=ann&password=SEC3b", nil)
        var request = URLRequest(url: URL(string: "https://api.example.com/login")!)
        request.httpMethod = "POST"
        request.httpBody = Data("user=ann&password=SEC3c".utf8)
        let curl = request.cURLDescription()
        #expect(!a.contains("SEC3a"))
        #expect(!b.contains("SEC3b"))
        #expect(!curl.contains("SEC3c"))
    }

    @Test("P4 credential names the exact-name match misses")
    func names() {
        let names = [
            "password_confirmation", "user[password_confirmation]", "current_password", "new_password",
            "passwordConfirmation", "clientSecret", "client-secret", "idToken", "api-key", "x-api-key",
            "private_token", "oauth_token", "oauth_signature", "X-Goog-Signature", "X-Goog-Credential", "jwt",
            "authorization", "access-token", "secret_key", "private_key", "passphrase", "pin",
        ]
        let missed = names.filter { !r.hidesField($0) }
        let headers = ["PRIVATE-TOKEN", "X-Vault-Token", "apikey", "DD-API-KEY", "X-Api-Token", "X-Session-Token"]
        let shownHeaders = headers.filter { r.headerValue($0, "SEC4") == "SEC4" }
        #expect(missed.isEmpty)
        #expect(shownHeaders.isEmpty)
    }

    @Test("P5 a hash-routed OAuth callback: #/callback?access_token=…")
    func hashRouteFragment() {
        let a = r.urlString("https://app.example.com/#/callback?access_token=SEC5a&state=x")
        let b = r.url(URL(string: "https://app.example.com/#/callback?code=SEC5b")!)
        let c = r.headerValue("Location", "https://app.example.com/#!/cb?id_token=SEC5c")
        #expect(!a.contains("SEC5a") && !b.contains("SEC5b") && !c.contains("SEC5c"))
    }

    @Test("P6 Refresh: spaces around '=', or no 'url='")
    func refreshForms() {
        let a = r.headerValue("Refresh", "0; URL = https://x.example/cb?code=SEC6a")
        let b = r.headerValue("Refresh", "5; https://x.example/cb?code=SEC6b")
        let c = r.headerValue("Refresh", "0;url='https://x.example/cb?code=SEC6c'")
        #expect(!a.contains("SEC6a") && !b.contains("SEC6b") && !c.contains("SEC6c"))
    }

    @Test("P7 multipart with LF line ends")
    func multipartLF() {
        let body = "--BND\nContent-Disposition: form-data; name=\"password\"\n\nSEC7\n--BND--\n"
        let shown = bodyText(body, "multipart/form-data; boundary=BND")
        #expect(!shown.contains("SEC7"))
    }

    @Test("P8 multipart: '--boundary' inside a part's content (legal mid-line, RFC 2046)")
    func multipartBoundaryInsideContent() {
        let body =
            "--b1\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nab--b1SEC8\r\n--b1--\r\n"
        let shown = bodyText(body, "multipart/form-data; boundary=b1")
        #expect(!shown.contains("SEC8"))
    }

    @Test("P8b multipart: RFC 2231 name*= and a part named in a filename-first disposition")
    func multipartExtendedName() {
        let body =
            "--b2\r\nContent-Disposition: form-data; name*=UTF-8''password\r\n\r\nSEC8b\r\n"
            + "--b2\r\nContent-Disposition: form-data; filename=\"a; name=x\"; name=\"token\"\r\n\r\nSEC8c\r\n--b2--\r\n"
        let shown = bodyText(body, "multipart/form-data; boundary=b2")
        #expect(!shown.contains("SEC8b"))
        #expect(!shown.contains("SEC8c"))
    }

    @Test("P11 JSON in UTF-16 cut at a limit / as NDJSON")
    func utf16() {
        let whole = "{\"access_token\":\"SEC11\",\"pad\":\"xxxxxxxx\"}"
        let data = whole.data(using: .utf16LittleEndian)!
        let cut = data.prefix(data.count - 6)
        let shown = r.body(cut, contentType: "application/json; charset=utf-16le")
        let text = String(data: shown, encoding: .utf16LittleEndian) ?? String(decoding: shown, as: UTF8.self)
        #expect(!text.contains("SEC11"))
    }

    @Test("P12 a JSON string that holds JSON (double-encoded payload)")
    func doubleEncoded() {
        let shown = bodyText(#"{"payload":"{\"password\":\"SEC12\"}"}"#, "application/json")
        #expect(!shown.contains("SEC12"))
    }

    @Test("P13 no regression: pretty JSON and a cut one are masked, text with nothing to hide is kept")
    func regressions() {
        let pretty = bodyText("{\n  \"a\" : 1,\n  \"password\" : \"SEC13\"\n}", "application/json")
        let cut = bodyText("{\n  \"a\" : 1,\n  \"password\" : \"SEC13\",\n  \"b\" : [1, 2", "application/json")
        #expect(!pretty.contains("SEC13") && !cut.contains("SEC13"))
        #expect(cut.hasPrefix("{\n  \"a\" : 1,\n  \"password\" : \"***\""))
        let plain = "Hello, \"world\": nothing here"
        #expect(bodyText(plain, "text/plain") == plain)
    }
}

@Suite("Redirect downgrades in every form")
struct HostileRedirectTests {
    struct Page: TargetType {
        var base = "https://api.example.com"
        var path: String
        var query: [String: String] = [:]
        var baseURL: URL { URL(string: base)! }
        var method: HTTPMethod { .get }
        var task: HTTPTask {
            query.isEmpty ? .requestPlain : .requestParameters(parameters: query, encoding: URLEncoding.queryString)
        }
        var headers: [String: String]? { nil }
    }

    func run(_ table: [String: (status: Int, headers: [String: String])], path: String) async -> String {
        let engine = BareEngine(table)
        let provider = Provider<Page>(transport: engine)
        var outcome: String
        do {
            let response = try await provider.request(Page(path: path))
            outcome = "answered \(response.statusCode)"
        } catch {
            if case .transport(let underlying, _) = error {
                outcome = "failed \(type(of: underlying))"
            } else {
                outcome = "failed \(error)"
            }
        }
        let sent = engine.sent.value.map { $0.url!.absoluteString }
        return "\(outcome); sent \(sent)"
    }

    @Test("P17 downgrade forms: 307, 308, upper case, odd forms, a chain")
    func forms() async {
        let cases: [(String, [String: (status: Int, headers: [String: String])])] = [
            ("307", ["https://api.example.com/a": (307, ["Location": "http://api.example.com/b"])]),
            ("308", ["https://api.example.com/a": (308, ["Location": "http://api.example.com/b"])]),
            ("upper", ["https://api.example.com/a": (302, ["Location": "HTTP://API.EXAMPLE.COM/b"])]),
            ("http:/x", ["https://api.example.com/a": (302, ["Location": "http:/b"])]),
            ("http:x", ["https://api.example.com/a": (302, ["Location": "http:b"])]),
            ("http:///x", ["https://api.example.com/a": (302, ["Location": "http:///evil.example/b"])]),
            ("//host", ["https://api.example.com/a": (302, ["Location": "//evil.example/b"])]),
            ("tab", ["https://api.example.com/a": (302, ["Location": "ht\ttp://evil.example/b"])]),
            (
                "chain",
                [
                    "https://api.example.com/a": (302, ["Location": "https://other.example/m"]),
                    "https://other.example/m": (301, ["Location": "http://other.example/z"]),
                ]
            ),
        ]
        for (name, table) in cases {
            let result = await run(table, path: "/a")
            #expect(!result.contains("\"http://"), "\(name)")
        }
    }

    @Test("P17b a stream and a resumable download are refused the downgrade too")
    func streamAndResume() async throws {
        let engine = BareEngine(["https://api.example.com/a": (302, ["Location": "http://api.example.com/b"])])
        let provider = Provider<Page>(transport: engine)
        do {
            _ = try await provider.stream(Page(path: "/a"))
        } catch {
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try await provider.download(Page(path: "/a"), resumingInto: folder.appendingPathComponent("f"))
        } catch {
        }
        let sent = engine.sent.value.map { $0.url!.absoluteString }
        #expect(!sent.contains { $0.hasPrefix("http://") })
    }

    @Test("P15 a name the logger's redaction adds is shown in the RedirectError it logs")
    func customNameInRedirectError() async {
        var redaction = Redaction.default
        redaction.fieldNames.insert("pin")
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }, redaction: redaction))
        let engine = BareEngine([
            "https://api.example.com/a?pin=SEC15": (302, ["Location": "http://api.example.com/b?pin=SEC15"])
        ])
        let provider = Provider<Page>(transport: engine, plugins: [logger])
        _ = try? await provider.request(Page(path: "/a", query: ["pin": "SEC15"]))
        #expect(!lines.value.contains { $0.contains("SEC15") })
    }
}

@Suite("Error texts without values")
struct HostileErrorTests {
    enum Kind: String, Decodable { case admin }
    struct Box: Decodable { let token: Kind }
    struct Stamp: Decodable {
        let token: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let value = try container.decode(String.self)
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a stamp: \(value)")
        }
    }
    enum VaultError: Error { case refused(token: String) }

    @Test("P14 decoding error texts")
    func decoding() {
        let cases: [(String, String, (Response) throws -> Void)] = [
            ("top-level enum", #""SEC14a""#, { _ = try $0.map(Kind.self) }),
            ("bad escape", #"{"token":"x\qSEC14b"}"#, { _ = try $0.map(Box.self) }),
            ("bad unicode escape", #"{"token":"\uZZZZSEC14c"}"#, { _ = try $0.map(Box.self) }),
            ("bare word", #"{"token":SEC14d}"#, { _ = try $0.map(Box.self) }),
            ("huge number", #"{"token":1e99999}"#, { _ = try $0.map(Box.self) }),
            ("top-level custom", #""SEC14f""#, { _ = try $0.map(Stamp.self) }),
            ("unterminated", #"{"token":"SEC14g"#, { _ = try $0.map(Box.self) }),
            ("control char", "{\"token\":\"SEC14h\u{01}\"}", { _ = try $0.map(Box.self) }),
        ]
        for (name, body, map) in cases {
            let response = Response(statusCode: 200, data: Data(body.utf8))
            do {
                try map(response)
            } catch {
                let text = "\(error) | \(String(reflecting: error))"
                #expect(!text.contains("SEC14"), "\(name)")
            }
        }
    }

    @Test("P16 an interceptor's error with the token as an associated value")
    func underlyingValue() async {
        let engine = BareEngine([:])
        let provider = Provider<HostileRedirectTests.Page>(
            transport: engine, interceptor: Adapter { _, _ in throw VaultError.refused(token: "SEC16") })
        do {
            _ = try await provider.request(.init(path: "/a"))
        } catch {
            let text = "\(error) | \(error.errorDescription ?? "") | \(error.localizedDescription)"
            #expect(!text.contains("SEC16"))
        }
    }
}

@Suite("Target names without values")
struct HostileTargetNameTests {
    struct Keyed: TargetType, CustomStringConvertible {
        let token: String
        var baseURL: URL { URL(string: "https://a.example")! }
        var path: String { "/" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { ["Authorization": "Bearer \(token)"] }
        var description: String { "Keyed(token: \(token))" }
    }
    enum Plain: TargetType, CustomStringConvertible {
        case me
        case login(password: String)
        var baseURL: URL { URL(string: "https://a.example")! }
        var path: String { "/" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var description: String { "me, holding SEC19" }
    }
    enum Lazy: NamedTarget {
        case login(password: String)
        var baseURL: URL { URL(string: "https://a.example")! }
        var path: String { "/" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var caseName: String { "\(self)" }
    }
    indirect enum Tree: TargetType {
        case node(Tree, secret: String)
        case leaf
        var baseURL: URL { URL(string: "https://a.example")! }
        var path: String { "/" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test("P18 TargetName and the observability add-on's label for hostile targets")
    func names() {
        let targets: [(String, any TargetType)] = [
            ("struct CSC", Keyed(token: "SEC18a")), ("multi", MultiTarget(Keyed(token: "SEC18b"))),
            ("enum CSC no payload", Plain.me), ("enum CSC payload", Plain.login(password: "SEC18c")),
            ("lying NamedTarget", Lazy.login(password: "SEC18d")), ("indirect", Tree.node(.leaf, secret: "SEC18e")),
        ]
        for (name, target) in targets {
            let core = TargetName.of(target)
            #expect(!core.contains("SEC"), "\(name)")
        }
    }
}

@Suite("Events and streamed bodies in HAR files and logs")
struct HostileEndToEndTests {
    enum Feed: TargetType {
        case events
        case login(password: String)
        var baseURL: URL { URL(string: "http://placeholder.invalid")! }
        var path: String {
            switch self {
            case .events: "/events"
            case .login: "/login"
            }
        }
        var method: HTTPMethod {
            if case .events = self { return .get }
            return .post
        }
        var task: HTTPTask {
            switch self {
            case .login(let password):
                .uploadStream(
                    UploadStream(length: UInt64(HostileEndToEndTests.body(password).count)) {
                        InputStream(data: HostileEndToEndTests.body(password))
                    })
            default: .requestPlain
            }
        }
        var headers: [String: String]? {
            if case .login = self { return ["Content-Type": "application/json"] }
            return nil
        }
    }
    static func body(_ password: String) -> Data { Data(#"{"user":"ann","password":"\#(password)"}"#.utf8) }

    @Test("an event stream's JSON, a streamed JSON request body, sent and to a stopped server: none in HAR or logs")
    func harAndLogger() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/events":
                ServerReply(
                    headers: ["Content-Type": "text/event-stream"],
                    body: Data("event: token\ndata: {\"access_token\":\"SEC19a\"}\n\n".utf8))
            default: ServerReply()
            }
        }
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("p.har")
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, e in lines.withLock { $0 += e } }, logOptions: .verbose))
        let base = server.baseURL
        let provider = Provider<Feed>(
            endpointClosure: { target in
                Endpoint(
                    url: base.absoluteString + target.path, sampleResponseClosure: { .networkResponse(200, Data()) },
                    method: target.method, task: target.task, httpHeaderFields: target.headers)
            }, transport: HARRecorder(recording: URLSessionTransport(), to: har), plugins: [logger])
        _ = try? await provider.request(.events)
        _ = try? await provider.request(.login(password: "SEC19b"))
        server.stop()
        _ = try? await provider.request(.login(password: "SEC19b"))
        let file = try String(contentsOf: har, encoding: .utf8)
        #expect(file.contains("***"))
        for secret in ["SEC19a", "SEC19b"] {
            #expect(!file.contains(secret), "\(secret) in HAR")
            #expect(!lines.value.contains { $0.contains(secret) }, "\(secret) in the log")
        }
    }
}

@Suite("Redaction of bodies nested or shaped to cost")
struct HostileSizeTests {
    /// A part named `password` inside `depth` multipart bodies.
    static func nested(depth: Int) -> (Data, String) {
        func boundary(_ level: Int) -> String { "b\(level)" }
        let heads = (0..<depth).map {
            "--\(boundary($0))\r\nContent-Type: multipart/mixed; boundary=\(boundary($0 + 1))\r\n\r\n"
        }
        let tails = (0..<depth).reversed().map { "\r\n--\(boundary($0))--\r\n" }
        let inner =
            "--\(boundary(depth))\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nSEC20\r\n"
            + "--\(boundary(depth))--\r\n"
        return (Data((heads.joined() + inner + tails.joined()).utf8), "multipart/mixed; boundary=\(boundary(0))")
    }

    @Test("nested multipart: read up to the limit, masked whole beyond it", arguments: [1, 3, 4, 60])
    func nestedMultipart(depth: Int) {
        let (data, type) = Self.nested(depth: depth)
        let shown = String(decoding: Redaction.default.body(data, contentType: type), as: UTF8.self)
        #expect(!shown.contains("SEC20"))
        // Within the limit each level's structure is kept; the fifth level down is one mask.
        #expect(shown.contains("--b0"))
        #expect(shown.contains("--b\(min(depth, 4))") == (depth < 4))
    }

    @Test("a boundary longer than RFC 2046's 70 characters, or none: the body is masked whole")
    func boundaries() {
        let body = "--B\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\nSEC21\r\n--B--\r\n"
        for type in [
            "multipart/form-data; boundary=\(String(repeating: "x", count: 71))", "multipart/form-data",
            "multipart/form-data; boundary=\"\"",
        ] {
            #expect(
                String(decoding: Redaction.default.body(Data(body.utf8), contentType: type), as: UTF8.self) == "***")
        }
        // A 70-character boundary over a body made of near-delimiters is read, and kept as it is.
        let boundary = String(repeating: "-", count: 70)
        let crafted = Data(String(repeating: "\n" + String(repeating: "-", count: 71) + "X", count: 4096).utf8)
        #expect(
            Redaction.default.body(crafted, contentType: "multipart/form-data; boundary=\(boundary)")
                == Data("***".utf8))
    }
}

@Suite("Redaction of shapes that held")
struct HostileHoldTests {
    let r = Redaction.default
    func text(_ body: String, _ type: String?) -> String {
        String(decoding: r.body(Data(body.utf8), contentType: type), as: UTF8.self)
    }

    @Test("H1 bodies")
    func bodies() {
        let cases: [(String, String, String?)] = [
            ("array of objects", #"[{"id":1,"password":"SECH1"},{"id":2}]"#, "application/json"),
            ("charset", #"{"token":"SECH1"}"#, "application/json; charset=utf-8"),
            ("escaped key, NDJSON", "{\"pass\\u0077ord\":\"SECH1\"}\n{\"a\":1}\n", "application/x-ndjson"),
            ("escaped key, cut", "{\"a\":1,\"pass\\u0077ord\":\"SECH1", "application/json"),
            ("cut in an escape", "{\"note\":\"a\\\"b\",\"token\":\"SECH1\\", "application/json"),
            ("cut in a key escape", "{\"a\":\"x\",\"tok\\u0065n\":\"SECH1\",\"b\":\"\\u00", "application/json"),
            (
                "percent names", "pass%77ord=SECH1&user%5Bpassword%5D=SECH1&PASSWORD%5B%5D=SECH1",
                "application/x-www-form-urlencoded"
            ),
            ("PASSWORD[]", "PASSWORD[]=SECH1&a=1", "application/x-www-form-urlencoded"),
            (
                "multipart filename",
                "--q\r\nContent-Disposition: form-data; name=\"password\"; filename=\"p.txt\"\r\nContent-Type: text/plain\r\n\r\nSECH1\r\n--q--\r\n",
                "multipart/form-data; boundary=q"
            ),
            (
                "quoted boundary",
                "--a b\r\nContent-Disposition: form-data; name=\"token\"\r\n\r\nSECH1\r\n--a b--\r\n",
                "multipart/form-data; boundary=\"a b\""
            ),
            (
                "json part",
                "--q\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"secret\":\"SECH1\"}\r\n--q--\r\n",
                "Multipart/Form-Data; charset=utf-8; Boundary=q"
            ),
        ]
        for (name, body, type) in cases {
            let shown = text(body, type)
            #expect(!shown.contains("SECH1"), "\(name)")
        }
    }

    @Test("H2 headers")
    func headers() {
        let link = r.headerValue(
            "Link",
            "<https://a.example/p?page=2&access_token=SECH2>; rel=\"next\", <https://a.example/p?token=SECH2>; rel=\"last\""
        )
        let location = r.headerValue("LOCATION", "HTTPS://a.example/cb?CODE=SECH2#state=1&id_token=SECH2")
        #expect(!link.contains("SECH2") && !location.contains("SECH2"))
    }
}
