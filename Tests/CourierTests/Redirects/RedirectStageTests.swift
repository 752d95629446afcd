import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Redirect safety lives above the engine, in the provider's redirect stage: an engine written
/// here, which never follows redirects, gets it.
@Suite("RedirectStage")
struct RedirectStageTests {
    /// An engine that never follows redirects: it answers each URL from a table and records
    /// what it was sent.
    final class TableEngine: Transport {
        let sent = Locked<[URLRequest]>([])
        let table: [String: (Int, [String: String])]
        init(_ table: [String: (Int, [String: String])]) { self.table = table }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            sent.withLock { $0.append(request.urlRequest) }
            let url = request.urlRequest.url!
            let (status, headers) = table[url.absoluteString] ?? (200, [:])
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            return TransportResponse(response: response, data: Data())
        }
    }

    private func request(_ url: String, method: String = "POST") -> TransportRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = Data("payload".utf8)
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        return TransportRequest(urlRequest: request)
    }

    @Test("another engine gets the same rules: relative Location, 303 to GET, credentials kept in origin only")
    func rulesAboveTheEngine() async throws {
        let engine = TableEngine([
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
        let engine = TableEngine([
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
