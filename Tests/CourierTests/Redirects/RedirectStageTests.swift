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
}
