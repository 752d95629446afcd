import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The class of leaks closed: distinct secrets seeded in every shape a request and its answer can
/// carry (an enum's associated values, a struct target's fields, headers, nested query items and
/// form fields, JSON, multipart and NDJSON bodies, cookies both ways, a redirect's `Location` with
/// a code and a fragment, Basic credentials, URL user information, a body longer than the
/// recorder keeps, a decoding error's value), then every text Courier writes searched for each
/// in raw, percent-encoded, JSON-escaped, Base64 and Base64url forms.
@Suite("Secret shapes")
struct SecretShapesTests {
    /// One secret per shape, each distinct, with characters that encodings change.
    enum Secret: String, CaseIterable {
        case enumValue = "Zq1+EnumValue=Aa"
        case structToken = "Zq2+StructTok=Bb"
        case bearer = "Zq3+BearerTok=Cc"
        case basic = "Zq4+BasicPass=Dd"
        case urlPassword = "Zq5UrlPassword9Ee"
        case queryFlat = "Zq6+QueryFlat=Ff"
        case queryNested = "Zq7+QueryNest=Gg"
        case queryNestedUser = "Zq8+UserPass=Hh"
        case jsonNested = "Zq9+JsonNest=Ii"
        case formNested = "Zr1+FormNest=Jj"
        case multipart = "Zr2+MultiPass=Kk"
        case cookie = "Zr3+CookieVal=Ll"
        case setCookie = "Zr4SetCookie9Mm"
        case locationCode = "Zr5LocationCode9Nn"
        case fragment = "Zr6FragmentTok9Oo"
        case ndjson = "Zr7+NdjsonTok=Pp"
        case bigJSON = "Zr8+BigJsonTok=Qq"
        case decoding = "Zr9DecodedValue9Rr"
        case apiKey = "Zs1+ApiKeyVal=Ss"
        case errorValue = "Zs2ErrorValue9Tt"
        case event = "Zs3+EventTok=Uu"
    }

    /// The API, as an app declares it: secrets in associated values and in fields.
    enum Vault: TargetType {
        case login(user: String, password: String)
        case search(baseURL: URL)
        case upload(part: String)
        case kind
        case stream
        case big
        case events

        var baseURL: URL {
            if case .search(let url) = self { return url }
            return URL(string: "http://placeholder.invalid")!
        }
        var path: String {
            switch self {
            case .login: "/login"
            case .search: "/search"
            case .upload: "/upload"
            case .kind: "/kind"
            case .stream: "/ndjson"
            case .big: "/big"
            case .events: "/events"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .search, .kind, .stream, .big, .events: .get
            default: .post
            }
        }
        var task: HTTPTask {
            switch self {
            case .login(let user, let password):
                .requestParameters(
                    parameters: ["user": ["name": user, "password": password]], encoding: JSONEncoding.default)
            case .search:
                .requestParameters(
                    parameters: [
                        "access_token": Secret.queryFlat.rawValue, "auth": ["token": Secret.queryNested.rawValue],
                        "user": ["password": Secret.queryNestedUser.rawValue], "q": "shoes",
                    ], encoding: URLEncoding.queryString)
            case .upload(let part):
                .uploadMultipartFormData(
                    MultipartFormData(parts: [
                        MultipartFormData.Part(content: .data(Data(part.utf8)), name: "password"),
                        MultipartFormData.Part(content: .data(Data("hello".utf8)), name: "comment"),
                    ]))
            case .kind, .stream, .big, .events: .requestPlain
            }
        }
        var headers: [String: String]? {
            switch self {
            case .login: ["Authorization": "Bearer \(Secret.bearer.rawValue)", "X-API-Key": Secret.apiKey.rawValue]
            case .search: ["Cookie": "pref=\(Secret.cookie.rawValue)"]
            case .upload: ["Authorization": "Basic " + Data("ann:\(Secret.basic.rawValue)".utf8).base64EncodedString()]
            default: nil
            }
        }
        var validationType: ValidationType { .successCodes }
    }

    /// A struct target, its token in a field and in a nested form field.
    struct Profile: TargetType {
        let token: String
        var baseURL: URL { URL(string: "http://placeholder.invalid")! }
        var path: String { "/profile" }
        var method: HTTPMethod { .put }
        var task: HTTPTask {
            .requestParameters(
                parameters: ["profile": ["password": Secret.formNested.rawValue], "session": token],
                encoding: URLEncoding.httpBody)
        }
        var headers: [String: String]? { ["X-Auth-Token": token] }
    }

    enum Kind: String, Decodable { case admin, user }
    /// A member named as a credential, whose value the decoder refuses: its error must not quote it.
    struct Account: Decodable { let token: Kind }

    /// An app's error whose associated value is a token: its text must not quote it.
    enum VaultError: Error { case refused(token: String) }

    /// The targets' endpoints on the test's server, as an app's endpoint closure moves them: the
    /// host of a base URL with user information is kept.
    static func rebased<Target: TargetType>(to server: URL) -> @Sendable (Target) -> Endpoint {
        { target in
            let base = target.baseURL.host == "placeholder.invalid" ? server : target.baseURL
            return Endpoint(
                url: base.absoluteString + target.path, sampleResponseClosure: { .networkResponse(200, Data()) },
                method: target.method, task: target.task, httpHeaderFields: target.headers)
        }
    }

    private static func server() throws -> LoopbackServer {
        let big =
            #"{"access_token":""# + Secret.bigJSON.rawValue + #"","padding":""# + String(repeating: "x", count: 6000)
            + #""}"#
        let ndjson =
            #"{"id":1,"token":""# + Secret.ndjson.rawValue + "\"}\n" + #"{"id":2,"refresh_token":""#
            + Secret.ndjson.rawValue + "\"}\n"
        return try LoopbackServer { request in
            switch request.path {
            case "/login":
                return ServerReply(
                    status: 302,
                    headers: [
                        "Location":
                            "/callback?code=\(Secret.locationCode.rawValue)#access_token=\(Secret.fragment.rawValue)",
                        "Set-Cookie": "sid=\(Secret.setCookie.rawValue); Path=/",
                    ])
            case "/kind":
                return ServerReply(
                    headers: ["Content-Type": "application/json"],
                    body: Data(#"{"token":"\#(Secret.decoding.rawValue)"}"#.utf8))
            case "/ndjson":
                return ServerReply(headers: ["Content-Type": "application/x-ndjson"], body: Data(ndjson.utf8))
            case "/big": return ServerReply(headers: ["Content-Type": "application/json"], body: Data(big.utf8))
            case "/events":
                let events = "event: token\ndata: {\"access_token\":\"\(Secret.event.rawValue)\"}\n\n"
                return ServerReply(headers: ["Content-Type": "text/event-stream"], body: Data(events.utf8))
            default: return ServerReply(headers: ["Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8))
            }
        }
    }

    @Test("no seeded secret in any text Courier writes, in any encoding")
    func everyShapeEveryText() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("vault.har")
        let lines = Locked<[String]>([])
        let loggers = [NetworkLoggerPlugin.LogOptions.default, .verbose, [.formatRequestAscURL, .verbose]].map {
            NetworkLoggerPlugin(
                configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }, logOptions: $0))
        }
        let recorder = HARRecorder(recording: URLSessionTransport(), to: har, maximumBodyBytes: 2048)
        let options = ProviderOptions(cookies: CookieJar())
        let vault = Provider<Vault>(
            endpointClosure: Self.rebased(to: server.baseURL), transport: recorder, plugins: loggers, options: options)
        let profiles = Provider<Profile>(
            endpointClosure: Self.rebased(to: server.baseURL), transport: recorder, plugins: loggers, options: options)
        let userinfo = URL(string: "http://ann:\(Secret.urlPassword.rawValue)@127.0.0.1:\(server.port)")!

        var texts: [String] = []
        var results: [Result<Response, CourierError>] = []
        for target in [
            Vault.login(user: "ann", password: Secret.enumValue.rawValue), .search(baseURL: userinfo),
            .upload(part: Secret.multipart.rawValue), .kind, .stream, .big,
        ] {
            results.append(await outcome { try await vault.request(target) })
            texts += (try? vault.endpoint(target).urlRequest()).map { [$0.cURLDescription()] } ?? []
        }
        results.append(await outcome { try await profiles.request(Profile(token: Secret.structToken.rawValue)) })
        // A redirect that is the answer: its `Location` is in the logger's response headers.
        let refusing = Provider<Vault>(
            endpointClosure: Self.rebased(to: server.baseURL), transport: recorder, plugins: loggers,
            options: ProviderOptions(redirects: .refuse, cookies: CookieJar()))
        results.append(await outcome { try await refusing.request(.login(user: "ann", password: "x")) })
        // An interceptor's error that holds a token.
        let failing = Provider<Vault>(
            endpointClosure: Self.rebased(to: server.baseURL), transport: recorder, plugins: loggers,
            interceptor: Adapter { _, _ in throw VaultError.refused(token: Secret.errorValue.rawValue) })
        results.append(await outcome { try await failing.request(.kind) })
        results.append(await outcome { try await vault.request(.events) })
        let kind = try await vault.request(.kind)
        results.append(.failure(#expect(throws: CourierError.self) { try kind.map(Account.self) }!))

        texts += results.flatMap(describe)
        texts += lines.value
        texts.append(try String(contentsOf: har, encoding: .utf8))

        #expect(lines.value.count > 20)
        // The shapes were written, masked: the refused redirect's `Location` in the logger's headers.
        #expect(lines.value.contains { $0.contains("Location: /callback?code=***#access_token=***") })
        #expect(try String(contentsOf: har, encoding: .utf8).contains("***"))
        for secret in Secret.allCases {
            for form in Self.forms(of: secret.rawValue) {
                let leak = texts.first { $0.contains(form) }
                #expect(leak == nil, "\(secret) leaked as \(form) in: \(leak ?? "")")
            }
        }
        for composite in ["ann:\(Secret.basic.rawValue)"] {
            for form in Self.forms(of: composite) { #expect(!texts.contains { $0.contains(form) }) }
        }
    }

    /// The forms a secret can take in text: as it is, percent-encoded (a query's and a form's),
    /// JSON-escaped, and in Base64 and Base64url at each of the three alignments a longer encoded
    /// text can put it in.
    static func forms(of secret: String) -> Set<String> {
        var forms: Set<String> = [secret]
        forms.insert(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret)
        forms.insert(secret.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "=", with: "%3D"))
        forms.insert(secret.replacingOccurrences(of: "/", with: "\\/"))
        for offset in 0..<3 {
            let encoded = (Data(repeating: 0, count: offset) + Data(secret.utf8)).base64EncodedString()
            // The groups that hold a byte that is not the secret's depend on their neighbours.
            var middle = Substring(encoded)
            if offset > 0 { middle = middle.dropFirst(4) }
            if (offset + secret.utf8.count) % 3 != 0 || middle.hasSuffix("=") { middle = middle.dropLast(4) }
            guard middle.count >= 8 else { continue }
            forms.insert(String(middle))
            forms.insert(middle.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
        }
        return forms
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
                String(reflecting: error), "\(error)", (error as NSError).localizedDescription,
            ] + (error.response.map { [$0.debugDescription] } ?? [])
        }
    }
}
