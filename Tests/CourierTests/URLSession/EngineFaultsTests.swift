import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Faults of URLSession on Linux that Courier cannot prevent, as Linux Notes describes them.
/// These tests document the engine, so they notice when a toolchain fixes or changes it; the faults
/// that stop the process (a trailer field, a connection closed in the middle of the headers) are
/// in Linux Notes only.
@Suite("URLSession engine faults on Linux")
struct EngineFaultsTests {
    // Gated on FoundationNetworking: the behaviour documented is that of swift-corelibs-foundation;
    // Apple's URLSession parses status lines differently.
    #if canImport(FoundationNetworking)
        @Test("a status line without a reason phrase is refused as a bad server response")
        func statusLineWithoutReason() async throws {
            let server = try LoopbackServer { _ in .raw("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok") }
            let request = TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("a")))
            let failure = await #expect(throws: TransportFailure.self) {
                _ = try await URLSessionTransport().send(request)
            }
            #expect(failure?.kind == .badServerResponse)
        }

        @Test(
            "a 301-308 without Location arrives with an empty body on every route; 300 and a 301 with Location keep it",
            arguments: [301, 302, 303, 307, 308])
        func redirectWithoutLocationLosesItsBody(status: Int) async throws {
            // FoundationNetworking keeps a 301-308's body aside for a delegate that declines the
            // redirect; with no Location there is no redirect to decline, and the body is dropped
            // before any delegate or completion handler sees it. This notices when that changes.
            let server = try LoopbackServer { request in
                var headers = ["Content-Type": "text/plain"]
                if request.path == "/located" { headers["Location"] = "/elsewhere" }
                let code = request.path == "/multiple" ? 300 : status
                return ServerReply(status: code, headers: headers, body: Data("moved elsewhere".utf8))
            }
            defer { server.stop() }
            let url: (String) -> TransportRequest = {
                TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent($0)))
            }
            // Asked to keep a redirect's body (a policy that refuses some) or not (`.follow`).
            for keeps in [false, true] {
                var bare = url("bare")
                bare.keepsRedirectBodies = keeps
                let response = try await URLSessionTransport().send(bare)
                #expect(response.statusCode == status)
                #expect(response.data.isEmpty, "FoundationNetworking kept the body of a \(status) without Location")
            }
            var located = url("located")
            located.keepsRedirectBodies = true
            let answer = try await URLSessionTransport().send(located)
            #expect(answer.data == Data("moved elsewhere".utf8))
            #expect(try await URLSessionTransport().send(url("multiple")).data == Data("moved elsewhere".utf8))
        }

        @Test("a status line whose protocol name is not upper case is taken as HTTP")
        func lowerCaseProtocolName() async throws {
            let server = try LoopbackServer { _ in .raw("Http/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
            let request = TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent("a")))
            let response = try await URLSessionTransport().send(request)
            #expect(response.statusCode == 200)
            #expect(response.data == Data("ok".utf8))
        }

        @Test("an opted-in URLCache serves nothing: fresh responses are fetched again, stale ones never revalidated")
        func urlCacheServesNothing() async throws {
            let server = try LoopbackServer { request in
                ServerReply(
                    headers: [
                        "Cache-Control": request.path == "/fresh" ? "max-age=600" : "max-age=0", "ETag": "\"v1\"",
                    ],
                    body: Data((request.header("If-None-Match") ?? "none").utf8))
            }
            let transport = URLSessionTransport(configuration: URLSessionTransport.moyaCompatibleConfiguration)
            for path in ["fresh", "stale"] {
                let request = TransportRequest(urlRequest: URLRequest(url: server.baseURL.appendingPathComponent(path)))
                _ = try await transport.send(request)
                let second = try await transport.send(request)
                #expect(String(decoding: second.data, as: UTF8.self) == "none")
            }
            #expect(server.requests.count == 4)
        }
    #endif
}
