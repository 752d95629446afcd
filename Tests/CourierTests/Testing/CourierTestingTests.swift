import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("CourierTesting")
struct CourierTestingTests {
    @Test("ScriptedTransport plays replies in order per endpoint, then the fallback")
    func scriptedOrder() async throws {
        let transport = ScriptedTransport(fallback: .status(404))
        transport.enqueue([.status(401), .json(200, #"{"ok":true}"#)], for: SampleAPI.user("a"))
        let provider = Provider<SampleAPI>(transport: transport)
        #expect(await capture { try await provider.request(.user("a")) }?.response?.statusCode == 401)
        let ok = try await provider.request(.user("a"))
        #expect(ok.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(await capture { try await provider.request(.user("a")) }?.response?.statusCode == 404)
        #expect(transport.requests.count == 3)
    }

    @Test("ScriptedTransport without a reply is a clear error")
    func scriptedNoReply() async {
        let provider = Provider<SampleAPI>(transport: ScriptedTransport())
        let error = await capture { try await provider.request(.user("zed")) }
        #expect(error?.underlyingError as? ScriptedTransportError == .noReply(method: "GET", path: "/v1/users/zed"))
    }

    // `URLSession.upload(for:from:)` and `data(from:)` need these releases on Apple platforms.
    @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
    @Test("the loopback server parses chunked bodies, keeps connections alive and logs requests")
    func serverParsing() async throws {
        let server = try LoopbackServer { .text("\($0.method) \($0.target) \($0.body.count)") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var chunked = URLRequest(url: server.baseURL.appendingPathComponent("upload"))
        chunked.httpMethod = "PUT"
        chunked.httpBodyStream = InputStream(data: Data(repeating: 7, count: 100_000))
        let (body, _) = try await session.upload(for: chunked, from: Data(repeating: 7, count: 100_000))
        #expect(String(decoding: body, as: UTF8.self) == "PUT /upload 100000")
        let (query, _) = try await session.data(from: URL(string: "\(server.baseURL)/q?a=1&b=2")!)
        #expect(String(decoding: query, as: UTF8.self) == "GET /q?a=1&b=2 0")
        #expect(server.requests.map(\.path) == ["/upload", "/q"])
        #expect(server.requests.last?.query == "a=1&b=2")
        #expect(server.requests.last?.header("host") == "127.0.0.1:\(server.port)")
    }

    @Test("a recorder wait times out with false when the event never comes")
    func recorderTimeout() async {
        let recorder = CallRecorder()
        #expect(await recorder.wait(for: .send, timeout: 0.05) == false)
        recorder.record(.send)
        #expect(await recorder.wait(for: .send, timeout: 0.05))
    }
}
