import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider with a ``CookieJar``, against a loopback server: cookies stored from every answer
/// and each redirect hop, sent once, never with a request that opts out.
@Suite("Cookie jar through the provider")
struct CookieJarProviderTests {
    struct Site: TargetType {
        var baseURL: URL
        var path: String
        var handlesCookies = true
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// Echoes the `Cookie` field lines it received (`none` without one), sets cookies on
    /// `/set` (two field lines), and redirects `/login` to `/home` setting one on the way.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/set":
                .raw(
                    "HTTP/1.1 200 OK\r\nSet-Cookie: sid=abc; Path=/\r\nSet-Cookie: theme=dark; Max-Age=3600\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n")
            case "/login":
                ServerReply(status: 302, headers: ["Location": "/home", "Set-Cookie": "auth=t0k3n; Path=/"])
            case "/away":
                ServerReply(status: 302, headers: ["Location": request.query?.removingPercentEncoding ?? ""])
            default:
                .text(
                    request.headers.filter { $0.name.lowercased() == "cookie" }.map(\.value).joined(separator: " | ")
                        .nonEmpty ?? "none")
            }
        }
    }

    func sent(_ provider: Provider<Site>, _ server: LoopbackServer, _ path: String, host: String? = nil) async throws
        -> String
    {
        var base = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        if let host { base.host = host }
        let response = try await provider.request(Site(baseURL: base.url!, path: path))
        return String(decoding: response.data, as: UTF8.self)
    }

    @Test("set a cookie, send it on the next request: once, in one Cookie field, with URLSession's own cookies off")
    func setThenUse() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let jar = CookieJar()
        // A transport whose session would store and send cookies itself, were the jar not in charge.
        let provider = Provider<Site>(
            transport: URLSessionTransport(configuration: .default), options: ProviderOptions(cookies: jar))

        _ = try await sent(provider, server, "/set")

        #expect(try await sent(provider, server, "/check") == "sid=abc; theme=dark")
        #expect(Set(jar.cookies.map(\.name)) == ["sid", "theme"])
    }

    @Test("a redirect's Set-Cookie is stored and the next hop carries it")
    func redirectHops() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let provider = Provider<Site>(transport: URLSessionTransport(), options: ProviderOptions(cookies: CookieJar()))

        #expect(try await sent(provider, server, "/login") == "auth=t0k3n")
    }

    @Test("a redirect to another host gets that host's cookies only, and the caller's own Cookie stays behind")
    func redirectToAnotherHost() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let jar = CookieJar()
        let provider = Provider<Site>(
            requestClosure: { endpoint in
                var request = try endpoint.urlRequest()
                request.setValue("mine=1", forHTTPHeaderField: "Cookie")
                return request
            }, transport: URLSessionTransport(), options: ProviderOptions(cookies: jar))
        jar.store(["local=1"], from: URL(string: "http://localhost/")!)
        _ = try await sent(provider, server, "/set")
        let elsewhere = "http://localhost:\(server.port)/check"

        let response = try await provider.request(
            Site(baseURL: server.baseURL, path: "/away").with(query: elsewhere))

        #expect(String(decoding: response.data, as: UTF8.self) == "local=1")
        #expect(try await sent(provider, server, "/check") == "mine=1; sid=abc; theme=dark")
    }

    @Test("a target that opts out and a request with httpShouldHandleCookies = false neither send nor store")
    func optOut() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let jar = CookieJar()
        let provider = Provider<Site>(transport: URLSessionTransport(), options: ProviderOptions(cookies: jar))
        let optedOut = { (path: String) in Site(baseURL: server.baseURL, path: path, handlesCookies: false) }

        let requestOptOut = Provider<Site>(
            requestClosure: { endpoint in
                var request = try endpoint.urlRequest()
                request.httpShouldHandleCookies = false
                return request
            }, transport: URLSessionTransport(), options: ProviderOptions(cookies: jar))

        _ = try await provider.request(optedOut("/set"))
        _ = try await sent(requestOptOut, server, "/set")
        #expect(jar.cookies.isEmpty)
        _ = try await sent(provider, server, "/set")
        let response = try await provider.request(optedOut("/check"))
        #expect(String(decoding: response.data, as: UTF8.self) == "none")
        #expect(try await sent(requestOptOut, server, "/check") == "none")
    }

    @Test("the logger's view of the request shows the jar's Cookie field, redacted")
    func observed() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let recorder = TransmittedRecorder()
        let provider = Provider<Site>(
            transport: URLSessionTransport(), plugins: [recorder], options: ProviderOptions(cookies: CookieJar()))
        _ = try await sent(provider, server, "/set")
        _ = try await sent(provider, server, "/check")

        #expect(recorder.cookies == [nil, "sid=abc; theme=dark"])
        #expect(Redaction.default.headerValue("Cookie", "sid=abc") == Redaction.mask)
    }

    /// Records the `Cookie` field of each transmitted request.
    final class TransmittedRecorder: PluginType, @unchecked Sendable {
        // Invariant: `lock` guards `seen`.
        private let lock = NSLock()
        private var seen: [String?] = []
        var cookies: [String?] { lock.withLock { seen } }
        func willTransmit(_ request: PreparedRequest, target: any TargetType) {
            lock.withLock { seen.append(request.request.value(forHTTPHeaderField: "Cookie")) }
        }
    }

    @Test("a Set-Cookie on the 304 that revalidated a stored answer is stored: a rotated session cookie is kept")
    func cookieOnNotModified() async throws {
        let server = try LoopbackServer { request in
            let cookie = request.headers.first { $0.name.lowercased() == "cookie" }?.value ?? "none"
            if request.headers.contains(where: { $0.name.lowercased() == "if-none-match" }) {
                return ServerReply(status: 304, headers: ["ETag": "\"v1\"", "Set-Cookie": "session=2; Path=/"])
            }
            return ServerReply(
                headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache", "Set-Cookie": "session=1; Path=/"],
                body: Data("sent \(cookie)".utf8))
        }
        defer { server.stop() }
        let jar = CookieJar()
        let provider = Provider<Site>(
            transport: URLSessionTransport(), options: ProviderOptions(cookies: jar, cache: HTTPCache()))
        let site = Site(baseURL: server.baseURL, path: "/page")

        #expect(try await provider.request(site).cacheOutcome == .miss)
        let revalidated = try await provider.request(site)
        guard case .revalidated = revalidated.cacheOutcome else {
            Issue.record("expected a revalidated answer, got \(String(describing: revalidated.cacheOutcome))")
            return
        }

        #expect(jar.cookies.map { "\($0.name)=\($0.value)" } == ["session=2"])
        _ = try await provider.request(site)
        #expect(server.requests.last?.headers.first { $0.name.lowercased() == "cookie" }?.value == "session=2")
    }

    @Test("a cookie the server sets for /docs/ reaches /docs/ on the next request")
    func trailingSlashThroughTheProvider() async throws {
        let server = try LoopbackServer { request in
            request.path == "/docs/"
                ? ServerReply(headers: ["Set-Cookie": "seen=1"], body: Data())
                : .text(request.headers.first { $0.name.lowercased() == "cookie" }?.value ?? "none")
        }
        defer { server.stop() }
        let provider = Provider<Site>(transport: URLSessionTransport(), options: ProviderOptions(cookies: CookieJar()))
        _ = try await provider.request(Site(baseURL: server.baseURL, path: "/docs/"))

        #expect(try await sent(provider, server, "/docs/page") == "seen=1")
        #expect(try await sent(provider, server, "/other") == "none")
    }
}

extension CookieJarProviderTests.Site {
    /// The target with `value` as its whole query (the redirect server's Location).
    func with(query value: String) -> Self {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
        var copy = self
        copy.baseURL = components.url!
        return copy
    }
}

extension String {
    /// `nil` for an empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
