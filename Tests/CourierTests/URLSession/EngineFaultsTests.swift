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
