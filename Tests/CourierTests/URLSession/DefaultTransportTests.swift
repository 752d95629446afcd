import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a provider created without a transport does: one shared session, Alamofire's default
/// headers, a cookie store shared by every such provider.
@Suite("Default transport")
struct DefaultTransportTests {
    @Test("providers created without a transport share one session")
    func sharedSession() {
        let first = Provider<TransferTarget>()
        let second = Provider<MultiTarget>()
        #expect((first.transport as? URLSessionTransport) === URLSessionTransport.shared)
        #expect((second.transport as? URLSessionTransport) === URLSessionTransport.shared)
    }

    @Test("the server sees a User-Agent naming Courier, the preferred languages and the platform's encodings")
    func defaultHeaders() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let target = TransferTarget(baseURL: server.baseURL, path: "/headers", method: .get, task: .requestPlain)

        _ = try await Provider<TransferTarget>().request(target)

        let request = try #require(server.requests.first)
        let userAgent = try #require(request.header("User-Agent"))
        #expect(userAgent.hasSuffix(" Courier/0.1.0"))
        #expect(userAgent.hasPrefix(ProcessInfo.processInfo.processName))
        #expect(userAgent == URLSessionTransport.defaultHeaders["User-Agent"])
        #expect(request.header("Accept-Language")?.contains(";q=1.0") == true)
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("a target's own User-Agent and Accept-Language replace the defaults")
    func targetHeadersWin() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let target = TransferTarget(
            baseURL: server.baseURL, path: "/headers", method: .get, task: .requestPlain,
            headers: ["User-Agent": "MyApp/2.0", "Accept-Language": "de"])

        _ = try await Provider<TransferTarget>().request(target)

        let request = try #require(server.requests.first)
        #expect(request.headers.filter { $0.name.lowercased() == "user-agent" }.map(\.value) == ["MyApp/2.0"])
        #expect(request.headers.filter { $0.name.lowercased() == "accept-language" }.map(\.value) == ["de"])
    }

    @Test("Accept-Language lists up to six languages with falling quality; User-Agent is one printable line")
    func headerValues() throws {
        let language = try #require(URLSessionTransport.defaultHeaders["Accept-Language"])
        let entries = language.components(separatedBy: ", ")
        #expect((1...6).contains(entries.count))
        #expect(entries.first?.hasSuffix(";q=1.0") == true)
        let userAgent = try #require(URLSessionTransport.defaultHeaders["User-Agent"])
        #expect(userAgent.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
    }

    @Test("a cookie set through one default provider is sent by another")
    func sharedCookies() async throws {
        // Cookies are scoped by host, not port: a path of its own keeps this one away from every
        // other test's requests to 127.0.0.1, and other tests' cookies may come along with it.
        let path = "/cookies-\(UUID().uuidString)"
        let server = try LoopbackServer { request in
            request.path.hasSuffix("/set")
                ? ServerReply(headers: ["Set-Cookie": "session=abc123; Path=\(path)"]) : ServerReply()
        }
        let setting = TransferTarget(baseURL: server.baseURL, path: "\(path)/set", method: .get, task: .requestPlain)
        let reading = TransferTarget(baseURL: server.baseURL, path: "\(path)/read", method: .get, task: .requestPlain)

        _ = try await Provider<TransferTarget>().request(setting)
        _ = try await Provider<MultiTarget>().request(MultiTarget(reading))

        let cookies = server.requests.last?.header("Cookie")?.components(separatedBy: "; ") ?? []
        #expect(cookies.contains("session=abc123"))
        #expect(server.requests.first?.header("Cookie")?.contains("abc123") != true)
    }

    @Test("the Moya-compatible configuration has a URL cache and the default headers")
    func moyaCompatible() {
        let configuration = URLSessionTransport.moyaCompatibleConfiguration
        #expect(configuration.urlCache != nil)
        #expect(
            configuration.httpAdditionalHeaders?["User-Agent"] as? String
                == URLSessionTransport.defaultHeaders["User-Agent"])
        #expect(URLSessionTransport.defaultConfiguration.urlCache == nil)
    }
}
