import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

extension SerializedSuite {
    /// The conformance case "set a cookie, send it on the next request", and a redirect hop's
    /// cookie, on AsyncHTTPClient (which has no cookie store) through a provider's ``CookieJar``.
    @Suite("Cookie jar on AsyncHTTPClient")
    struct CookieJarTests {
        struct Site: TargetType {
            var baseURL: URL
            var path: String
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
        }

        static func server() throws -> LoopbackServer {
            try LoopbackServer { request in
                switch request.path {
                case "/set":
                    .raw(
                        "HTTP/1.1 200 OK\r\nSet-Cookie: sid=abc; Path=/\r\nSet-Cookie: theme=dark; Max-Age=3600\r\n"
                            + "Content-Length: 0\r\nConnection: close\r\n\r\n")
                case "/login": ServerReply(status: 302, headers: ["Location": "/home", "Set-Cookie": "auth=t0k3n"])
                default:
                    .text(
                        request.headers.filter { $0.name.lowercased() == "cookie" }.map(\.value).joined(
                            separator: " | "))
                }
            }
        }

        @Test("without a jar no cookie is sent back; with one, set-then-use sends each cookie once")
        func setThenUse() async throws {
            let server = try Self.server()
            defer { server.stop() }
            let bare = Provider<Site>(transport: AsyncHTTPClientTransport())
            let withJar = Provider<Site>(
                transport: AsyncHTTPClientTransport(), options: ProviderOptions(cookies: CookieJar()))

            _ = try await bare.request(Site(baseURL: server.baseURL, path: "/set"))
            let bareSent = try await bare.request(Site(baseURL: server.baseURL, path: "/check"))
            _ = try await withJar.request(Site(baseURL: server.baseURL, path: "/set"))
            let jarSent = try await withJar.request(Site(baseURL: server.baseURL, path: "/check"))

            #expect(String(decoding: bareSent.data, as: UTF8.self) == "")
            #expect(String(decoding: jarSent.data, as: UTF8.self) == "sid=abc; theme=dark")
        }

        @Test("a redirect's Set-Cookie reaches the next hop, followed by Courier above the engine")
        func redirectHop() async throws {
            let server = try Self.server()
            defer { server.stop() }
            let provider = Provider<Site>(
                transport: AsyncHTTPClientTransport(), options: ProviderOptions(cookies: CookieJar()))

            let response = try await provider.request(Site(baseURL: server.baseURL, path: "/login"))

            #expect(String(decoding: response.data, as: UTF8.self) == "auth=t0k3n")
        }
    }
}
