import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request smuggling: Courier owns Content-Length, Transfer-Encoding, Host and Connection; a user
/// value never reaches the wire.
@Suite("Framing headers")
struct FramingTests {
    private let smuggled = "abc" + "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test("a user Content-Length cannot smuggle a second request into the connection")
    func contentLength() async throws {
        let server = try LoopbackServer { ServerReply(body: Data($0.path.utf8)) }
        defer { server.stop() }
        let provider = Provider<OrderTarget>()
        let target = OrderTarget(
            baseURL: server.baseURL, path: "/p", method: .post, task: .requestData(Data(smuggled.utf8)),
            headers: ["Content-Length": "3"])
        _ = try await provider.request(target)
        // A second request on the kept-alive connection: a smuggled request would be read first.
        _ = try await provider.request(OrderTarget(baseURL: server.baseURL, path: "/after"))

        #expect(server.requests.map(\.target) == ["/p", "/after"])
        #expect(server.requests.first?.body == Data(smuggled.utf8))
        #expect(server.requests.first?.header("Content-Length") == "\(smuggled.utf8.count)")
    }

    @Test("user Transfer-Encoding, Host, Connection and Keep-Alive values are dropped")
    func framingFields() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        defer { server.stop() }
        let target = OrderTarget(
            baseURL: server.baseURL, path: "/p", method: .post, task: .requestData(Data("hello".utf8)),
            headers: [
                "Transfer-Encoding": "chunked", "Host": "evil.example", "Connection": "close",
                "Keep-Alive": "timeout=1",
                "X-Kept": "yes",
            ])
        let response = try await Provider<OrderTarget>().request(target)

        let received = try #require(server.requests.first)
        #expect(received.body == Data("hello".utf8))
        #expect(received.header("Transfer-Encoding") == nil)
        #expect(received.header("Content-Length") == "5")
        #expect(received.header("Host") == "127.0.0.1:\(server.port)")
        #expect(received.header("Keep-Alive") == nil)
        #expect(received.header("Connection")?.lowercased() != "close")
        #expect(received.header("X-Kept") == "yes")
        // The request the response carries is the one that was sent.
        #expect(response.request?.value(forHTTPHeaderField: "Host") == nil)
    }

    @Test("a file upload never carries both Content-Length and Transfer-Encoding")
    func fileUpload() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, data) = try Scratch.file(in: folder, name: "upload.bin", size: 100_000)
        let server = try LoopbackServer { _ in ServerReply() }
        defer { server.stop() }
        let target = TransferTarget(
            baseURL: server.baseURL, path: "/upload", method: .put, task: .uploadFile(file),
            headers: ["Content-Length": "3"])
        _ = try await Provider<TransferTarget>().request(target)

        let received = try #require(server.requests.first)
        #expect(received.body == data)
        let framing = [received.header("Content-Length"), received.header("Transfer-Encoding")].compactMap { $0 }
        #expect(framing.count == 1, "exactly one framing header: \(framing)")
        #expect(received.header("Content-Length") ?? "\(data.count)" == "\(data.count)")
    }
}
