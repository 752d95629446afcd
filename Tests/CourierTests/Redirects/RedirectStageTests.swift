import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirect safety lives above the engine, in the provider's redirect stage: an engine written in
/// the tests (`BareEngine`), which never follows redirects, gets it.
@Suite("RedirectStage")
struct RedirectStageTests {
    private func request(_ url: String, method: String = "POST") -> TransportRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = Data("payload".utf8)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        return TransportRequest(urlRequest: request)
    }

    @Test("another engine gets the same rules: relative Location, 303 to GET, credentials kept in origin only")
    func rulesAboveTheEngine() async throws {
        let engine = BareEngine([
            "https://api.example.com/a": (307, ["Location": "/b"]),
            "https://api.example.com/b": (303, ["Location": "https://cdn.example.net/c"]),
        ])
        let response = try await engine.sendThroughStages(request("https://api.example.com/a"))

        #expect(response.statusCode == 200)
        let sent = engine.sent.value
        #expect(
            sent.map { $0.url!.absoluteString } == [
                "https://api.example.com/a", "https://api.example.com/b", "https://cdn.example.net/c",
            ])
        #expect(sent.map { $0.httpMethod ?? "" } == ["POST", "POST", "GET"])
        #expect(sent.map { $0.httpBody?.count ?? 0 } == [7, 7, 0])
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer secret", "Bearer secret", nil])
    }

    @Test("a redirect to another scheme is not followed; a loop ends with tooManyRedirects")
    func schemesAndLoops() async throws {
        let engine = BareEngine([
            "https://api.example.com/file": (302, ["Location": "file:///etc/passwd"]),
            "https://api.example.com/loop": (302, ["Location": "/loop"]),
        ])

        let answer = try await engine.sendThroughStages(request("https://api.example.com/file", method: "GET"))
        #expect(answer.statusCode == 302)
        await #expect {
            _ = try await engine.sendThroughStages(request("https://api.example.com/loop", method: "GET"))
        } throws: { ($0 as? TransportFailure)?.kind == .tooManyRedirects }
        #expect(engine.sent.value.count == 1 + 20 + 1)
    }

    /// A target of the downgrade tests.
    struct Page: TargetType {
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test("https → http is refused by default, on the engine's behalf: nothing sent in clear, not retried")
    func downgradeRefused() async throws {
        let engine = BareEngine([
            "https://api.example.com/login": (302, ["Location": "http://api.example.com/done?code=OAUTHCODE"])
        ])
        let provider = Provider<Page>(transport: engine, interceptor: RetryPolicy())

        let error = await #expect(throws: CourierError.self) { try await provider.request(Page(path: "/login")) }

        guard case .transport(let underlying, _)? = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(
            underlying as? RedirectError
                == .downgrade(
                    from: URL(string: "https://api.example.com/login")!,
                    to: URL(string: "http://api.example.com/done?code=OAUTHCODE")!))
        #expect(engine.sent.value.map { $0.url!.scheme } == ["https"])
        let text = error?.errorDescription ?? ""
        #expect(text.contains("from https to plain http") && text.contains("allowingDowngrade"))
        #expect(!text.contains("OAUTHCODE"))
    }

    @Test("a downgrade is followed when the policy allows it; a modify policy cannot make one")
    func downgradeAllowedOrMade() async throws {
        let engine = BareEngine([
            "https://api.example.com/old": (301, ["Location": "http://api.example.com/new"]),
            "https://api.example.com/moved": (302, ["Location": "https://api.example.com/there"]),
        ])
        let allowing = Provider<Page>(
            transport: engine, options: ProviderOptions(redirects: .follow.allowingDowngrade()))
        #expect(try await allowing.request(Page(path: "/old")).statusCode == 200)
        #expect(engine.sent.value.map { $0.url!.absoluteString }.last == "http://api.example.com/new")

        let rewriting = RedirectPolicy.modify { request, _ in
            var request = request
            request.url = URL(string: "http://api.example.com/there")
            return request
        }
        let modifying = Provider<Page>(transport: engine, options: ProviderOptions(redirects: rewriting))
        await #expect {
            _ = try await modifying.request(Page(path: "/moved"))
        } throws: { error in
            guard case .transport(let underlying, _)? = error as? CourierError else { return false }
            return underlying is RedirectError
        }
        #expect(engine.sent.value.count == 3)
        // http → https and http → http stay followed.
        #expect(
            RedirectPolicy.follow.nextRequest(
                after: HTTPURLResponse(
                    url: URL(string: "http://a.example/x")!, statusCode: 302, httpVersion: nil,
                    headerFields: ["Location": "http://b.example/y"])!,
                for: URLRequest(url: URL(string: "http://a.example/x")!))?.url?.absoluteString == "http://b.example/y")
    }
}
