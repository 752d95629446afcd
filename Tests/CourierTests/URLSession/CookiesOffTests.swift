import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `httpShouldHandleCookies = false` means no cookie is sent from storage and none is stored, on
/// every platform: URLSession on Linux ignores the flag on a request, so the transport sends such
/// requests through a session without cookie handling.
@Suite("Cookies off")
struct CookiesOffTests {
    struct Site: TargetType {
        var baseURL: URL
        var path: String
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    @Test("a request with cookies off sends none and stores none; one with cookies on still does")
    func cookiesOff() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/set": ServerReply(headers: ["Set-Cookie": "session=abc; Path=/"])
            case "/set-ignored": ServerReply(headers: ["Set-Cookie": "tracker=xyz; Path=/"])
            default: ServerReply(body: Data((request.header("Cookie") ?? "none").utf8))
            }
        }
        let transport = URLSessionTransport()
        let withCookies = Provider<Site>(transport: transport)
        let withoutCookies = Provider<Site>(
            requestClosure: { endpoint in
                var request = try endpoint.urlRequest()
                request.httpShouldHandleCookies = false
                return request
            }, transport: transport)

        _ = try await withCookies.request(Site(baseURL: server.baseURL, path: "/set"))
        let sentWithout = try await withoutCookies.request(Site(baseURL: server.baseURL, path: "/check"))
        _ = try await withoutCookies.request(Site(baseURL: server.baseURL, path: "/set-ignored"))
        let sentWith = try await withCookies.request(Site(baseURL: server.baseURL, path: "/check"))

        #expect(String(decoding: sentWithout.data, as: UTF8.self) == "none")
        #expect(String(decoding: sentWith.data, as: UTF8.self) == "session=abc")
    }
}
