import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Redirects")
struct RedirectTests {
    /// A server that redirects `/start` to `location` (built from its own URL) with `status`, and
    /// echoes what the final request carried.
    private func server(status: Int, location: @escaping @Sendable (URL) -> String) throws -> LoopbackServer {
        let base = Locked<URL?>(nil)
        let server = try LoopbackServer { request in
            if request.path == "/start" {
                return ServerReply(status: status, headers: ["Location": location(base.withLock { $0 }!)])
            }
            let echo =
                #"{"method":"\#(request.method)","body":"\#(String(decoding: request.body, as: UTF8.self))","#
                + #""authorization":"\#(request.header("Authorization") ?? "")","cookie":"\#(request.header("Cookie") ?? "")"}"#
            return .json(echo)
        }
        base.withLock { $0 = server.baseURL }
        return server
    }

    private func post(_ server: LoopbackServer, transport: URLSessionTransport = URLSessionTransport()) async throws
        -> [String: String]
    {
        var target = FaultTarget(baseURL: server.baseURL, path: "/start")
        target.method = .post
        target.task = .requestData(Data("payload".utf8))
        target.headers = ["Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic x"]
        let response = try await Provider<FaultTarget>(transport: transport).request(target)
        return try response.map([String: String].self)
    }

    @Test("credentials never follow a redirect to another origin")
    func crossOrigin() async throws {
        let server = try server(status: 302) { base in "http://localhost:\(base.port!)/end" }
        var target = FaultTarget(baseURL: server.baseURL, path: "/start")
        target.headers = ["Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic x"]
        let echo = try await Provider<FaultTarget>().request(target).map([String: String].self)
        #expect(echo["authorization"] == "")
        #expect(echo["cookie"] == "")
        let final = try #require(server.requests.last)
        #expect(final.header("Host") == "localhost:\(server.port)")
        #expect(final.header("Proxy-Authorization") == nil)
    }

    @Test("credentials follow a redirect within the same origin")
    func sameOrigin() async throws {
        let server = try server(status: 302) { base in "\(base.absoluteString)/end" }
        var target = FaultTarget(baseURL: server.baseURL, path: "/start")
        target.headers = ["Authorization": "Bearer secret"]
        let echo = try await Provider<FaultTarget>().request(target).map([String: String].self)
        #expect(echo["authorization"] == "Bearer secret")
    }

    @Test("307 and 308 keep the method and resend the body", arguments: [307, 308])
    func keepsBody(status: Int) async throws {
        let server = try server(status: status) { base in "\(base.absoluteString)/end" }
        let echo = try await post(server)
        #expect(echo["method"] == "POST")
        #expect(echo["body"] == "payload")
    }

    @Test("a 302 after a POST becomes a GET, as browsers do")
    func seeOther() async throws {
        let server = try server(status: 302) { base in "\(base.absoluteString)/end" }
        let echo = try await post(server)
        #expect(echo["method"] == "GET")
    }

    @Test("an upload redirected by a 307 is sent again, from its file, to the new location")
    func uploadRedirected() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, data) = try Scratch.file(in: folder, name: "up.bin", size: 1000)
        let server = try server(status: 307) { base in "\(base.absoluteString)/end" }
        var target = FaultTarget(baseURL: server.baseURL, path: "/start")
        target.method = .post
        target.task = .uploadFile(file)
        _ = try await Provider<FaultTarget>().request(target)
        #expect(server.requests.map(\.path) == ["/start", "/end"])
        #expect(server.requests.map(\.body) == [data, data])
    }

    @Test("the refuse policy returns the redirect itself; modify changes the next request")
    func policies() async throws {
        let server = try server(status: 302) { base in "\(base.absoluteString)/end" }
        let refused = await capture {
            try await Provider<FaultTarget>(
                transport: URLSessionTransport(), options: ProviderOptions(redirects: .refuse)
            )
            .request(FaultTarget(baseURL: server.baseURL, path: "/start"))
        }
        #expect(refused?.response?.statusCode == 302)

        let stamping = RedirectPolicy.modify { request, response in
            var request = request
            request.setValue("\(response.statusCode)", forHTTPHeaderField: "Authorization")
            return request
        }
        let echo = try await Provider<FaultTarget>(
            transport: URLSessionTransport(), options: ProviderOptions(redirects: stamping)
        )
        .request(FaultTarget(baseURL: server.baseURL, path: "/start")).map([String: String].self)
        #expect(echo["authorization"] == "302")
    }
}
