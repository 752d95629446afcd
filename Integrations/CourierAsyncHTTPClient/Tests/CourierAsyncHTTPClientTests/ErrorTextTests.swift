import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// A failure's text names the engine's reason, not Foundation's bridging ("The operation could
    /// not be completed. (AsyncHTTPClient.HTTPClientError error 1.)").
    @Suite("Error texts on AsyncHTTPClient")
    struct ErrorTextTests {
        struct Slow: TargetType {
            var baseURL: URL
            var path: String { "/slow" }
            var method: Courier.HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var timeoutInterval: TimeInterval? { 0.2 }
        }

        private func text(of reply: ServerReply, _ url: URL? = nil) async throws -> String {
            let server = try LoopbackServer { _ in reply }
            let error = await capture {
                try await Provider<Slow>(transport: AsyncHTTPClientTransport()).request(
                    Slow(baseURL: url ?? server.baseURL))
            }
            let text = "\(try #require(error))"
            #expect(!text.contains("The operation could not be completed"), "\(text)")
            return text
        }

        @Test("a timeout says deadlineExceeded")
        func timeout() async throws {
            let text = try await text(of: .raw([.pause(2)]))
            #expect(text.contains("timedOut: HTTPClientError.deadlineExceeded"), "\(text)")
        }

        @Test("a refused connection names NIO's error")
        func refused() async throws {
            let server = try LoopbackServer { _ in ServerReply() }
            server.stop()
            let text = try await text(of: ServerReply(), server.baseURL)
            #expect(text.contains("cannotConnect: "), "\(text)")
            #expect(text.contains("onnect"), "\(text)")
        }

        @Test("an answer that is not HTTP names the parser's error")
        func notHTTP() async throws {
            let text = try await text(of: .raw("SSH-2.0-OpenSSH_9.6\r\n"))
            #expect(text.contains("badServerResponse: "), "\(text)")
            #expect(text.contains("HTTPParserError") || text.contains("invalid"), "\(text)")
        }
    }
}
