import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pointing endpoints elsewhere from an `endpointClosure`: a whole URL, or another origin.
@Suite("Endpoint URLs")
struct EndpointURLTests {
    @Test("replacing the origin keeps path, query, method, task and headers")
    func origin() throws {
        let endpoint = Endpoint(
            url: URL(string: "https://api.example.com/v1/users?page=2")!,
            sampleResponseClosure: { .networkResponse(200, Data()) }, method: .post, task: .requestPlain,
            httpHeaderFields: ["X-App": "1"])

        let staged = endpoint.replacing(origin: URL(string: "http://staging.example.com:8080/ignored")!)

        #expect(staged.url == "http://staging.example.com:8080/v1/users?page=2")
        #expect(staged.method == .post)
        #expect(staged.httpHeaderFields == ["X-App": "1"])
        let request = try staged.urlRequest()
        #expect(request.url?.absoluteString == "http://staging.example.com:8080/v1/users?page=2")
        #expect(request.value(forHTTPHeaderField: "X-App") == "1")
    }

    @Test("a provider pointed at another origin sends every target there")
    func wholeProvider() async throws {
        let transport = ScriptedTransport(fallback: .status(200))
        let provider = Provider<Secured>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(origin: URL(string: "https://cdn.example.net")!)
            }, transport: transport)
        _ = try await provider.request(.bearer)
        #expect(transport.requests.first?.url?.absoluteString == "https://cdn.example.net/bearer")
    }

    @Test("replacing the whole URL; an unparseable URL is left for building to refuse")
    func wholeURL() {
        let endpoint = Endpoint(
            url: "https://api.example.com/a", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .get,
            task: .requestPlain, httpHeaderFields: nil)
        #expect(
            endpoint.replacing(url: URL(string: "https://other.example.com/b")!).url == "https://other.example.com/b")
        let broken = Endpoint(
            url: "http://[::1", sampleResponseClosure: { .networkResponse(200, Data()) }, method: .get,
            task: .requestPlain, httpHeaderFields: nil)
        #expect(broken.replacing(origin: URL(string: "https://staging.example.com")!).url == "http://[::1")
    }
}
