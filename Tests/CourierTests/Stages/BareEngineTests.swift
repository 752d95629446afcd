import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The provider's stages hold on an engine a user writes with nothing but `send`: redirects are
/// followed with Courier's rules, the jar's cookies go out per hop, and a timeout the engine
/// ignores is enforced above it.
@Suite("A bare engine under a provider")
struct BareEngineTests {
    static let origin = "http://127.0.0.1:8001"
    /// Another host: cookies are shared across the ports of one host (RFC 6265 §8.5).
    static let other = "http://localhost:8002"

    private func target(_ path: String, method: HTTPMethod = .get, timeout: TimeInterval? = nil) -> FaultTarget {
        FaultTarget(
            baseURL: URL(string: Self.origin)!, path: path, method: method,
            task: method == .get ? .requestPlain : .requestData(Data("payload".utf8)),
            headers: ["Authorization": "Bearer secret"], timeout: timeout)
    }

    @Test(
        "redirects are followed with Courier's rules: 307 keeps the method, 303 turns to GET, no credentials to another origin"
    )
    func redirects() async throws {
        let engine = BareEngine([
            "\(Self.origin)/a": (307, ["Location": "/b"]),
            "\(Self.origin)/b": (303, ["Location": "\(Self.other)/c"]),
        ])
        let response = try await Provider<FaultTarget>(transport: engine).request(target("/a", method: .post))

        #expect(String(decoding: response.data, as: UTF8.self) == "/c")
        let sent = engine.sent.value
        #expect(sent.map { $0.url!.absoluteString } == ["\(Self.origin)/a", "\(Self.origin)/b", "\(Self.other)/c"])
        #expect(sent.map { $0.httpMethod ?? "" } == ["POST", "POST", "GET"])
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer secret", "Bearer secret", nil])
    }

    @Test("the provider's redirect policy applies: refuse returns the 3xx; a loop ends with tooManyRedirects")
    func policyAndLoop() async throws {
        let engine = BareEngine([
            "\(Self.origin)/moved": (302, ["Location": "/end"]),
            "\(Self.origin)/loop": (302, ["Location": "/loop"]),
        ])
        let refusing = Provider<FaultTarget>(transport: engine, options: ProviderOptions(redirects: .refuse))
        let refused = await #expect(throws: CourierError.self) { try await refusing.request(target("/moved")) }
        #expect(refused?.response?.statusCode == 302)

        let error = await #expect(throws: CourierError.self) {
            try await Provider<FaultTarget>(transport: engine).request(target("/loop"))
        }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .tooManyRedirects)
        #expect(engine.sent.value.filter { $0.url!.path == "/loop" }.count == 21)
    }

    @Test("the jar stores a redirect's Set-Cookie and sends each hop its own cookies")
    func cookiesPerHop() async throws {
        let engine = BareEngine([
            "\(Self.origin)/login": (302, ["Location": "/home", "Set-Cookie": "session=abc; Path=/"]),
            "\(Self.origin)/home": (302, ["Location": "\(Self.other)/away"]),
        ])
        let jar = CookieJar()
        let provider = Provider<FaultTarget>(transport: engine, options: ProviderOptions(cookies: jar))
        _ = try await provider.request(target("/login"))

        let cookies = engine.sent.value.map { $0.value(forHTTPHeaderField: "Cookie") }
        #expect(cookies == [nil, "session=abc", nil])
    }

    @Test("a timeout the engine ignores is enforced above it", .timeLimit(.minutes(1)))
    func timeout() async throws {
        let engine = BareEngine([:], slowPaths: ["/slow"])
        let started = Date()
        let error = await #expect(throws: CourierError.self) {
            try await Provider<FaultTarget>(transport: engine).request(target("/slow", timeout: 0.3))
        }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 4)
    }
}
