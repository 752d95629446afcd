import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A redirect that is not followed reaches the caller whole: its status, its headers and its
/// body, on every route of every transport.
@Suite("Refused redirects keep their body")
struct RedirectBodyTests {
    @Test(
        "a refused redirect's body arrives with it",
        arguments: [301, 302, 303, 307, 308], [false, true])
    func refusedRedirectBody(status: Int, observed: Bool) async throws {
        let server = try LoopbackServer { request in
            ServerReply(
                status: status, headers: ["Location": "/elsewhere", "Content-Type": "text/html"],
                body: Data("<a href=\"/elsewhere\">moved</a>".utf8))
        }
        let transport = URLSessionTransport()
        var request = TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("old")))
        // As the redirect stage asks when its policy may refuse a redirect.
        request.keepsRedirectBodies = true
        // With a progress observer, the request takes the delegate route.
        if observed { request.progress = { _ in } }
        let response = try await transport.send(request)
        #expect(response.statusCode == status)
        #expect(String(decoding: response.data, as: UTF8.self) == "<a href=\"/elsewhere\">moved</a>")
        #expect(server.requests.count == 1)
    }
}
