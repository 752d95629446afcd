import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What Moya's NetworkLoggerPluginSpec expects of the logger: Moya's `didReceive(_:target:)` logs,
/// directly and through `any PluginType` (a provider still logs once); a response without a
/// request names its URL; the session's own header fields; a body sent from elsewhere.
@Suite("NetworkLoggerPlugin, Moya's way")
struct NetworkLoggerPluginMoyaTests {
    private typealias Capture = NetworkLoggerPluginTests.Capture

    private struct Upload: TargetType {
        var baseURL: URL
        var file: URL
        var path: String { "/files" }
        var method: HTTPMethod { .put }
        var task: HTTPTask { .uploadFile(file) }
        var headers: [String: String]? { ["Authorization": "Bearer s3cret-token"] }
    }

    private static func messages(_ log: Capture) -> [String] {
        log.all.map { String($0.drop { $0 != "]" }.dropFirst(2)) }
    }

    @Test("Moya's didReceive(_:target:) logs, called on the logger or through any PluginType")
    func moyaDidReceive() {
        let log = Capture()
        let logger = NetworkLoggerPlugin(configuration: log.configuration(.verbose))
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/octocat?access_token=abc123")!)
        request.httpMethod = "GET"
        let response = Response(statusCode: 200, data: Data(#"{"ok":true}"#.utf8), request: request)
        logger.didReceive(.success(response), target: SampleAPI.user("octocat"))
        let plugin: any PluginType = logger
        plugin.didReceive(.failure(.statusCode(response)), target: SampleAPI.user("octocat"))

        let lines = Self.messages(log)
        #expect(lines.contains("Response: 200 GET https://api.example.com/v1/users/octocat?access_token=***"))
        #expect(lines.contains(#"Response Body: {"ok":true}"#))
        #expect(lines.contains { $0.hasPrefix("Error: ") && $0.contains("access_token=***") })
        #expect(!log.all.contains { $0.contains("abc123") })
    }

    @Test("a provider logs its result once, through the form with metrics")
    func providerLogsOnce() async throws {
        let log = Capture()
        let provider = Provider<SampleAPI>(
            transport: ScriptedTransport(fallback: .json(200, "{}")),
            plugins: [NetworkLoggerPlugin(configuration: log.configuration())])
        _ = try await provider.request(.user("octocat"))
        #expect(Self.messages(log).filter { $0.hasPrefix("Response") }.count == 1)
    }

    @Test("a response without a request names the URL it came from, or the target's")
    func responseWithoutRequest() {
        let log = Capture()
        let logger = NetworkLoggerPlugin(configuration: log.configuration())
        logger.didReceive(.success(Response(statusCode: 204, data: Data())), target: SampleAPI.user("octocat"))
        let http = HTTPURLResponse(
            url: URL(string: "https://cdn.example.com/a?token=zz9")!, statusCode: 200, httpVersion: nil,
            headerFields: nil)
        logger.didReceive(
            .success(Response(statusCode: 200, data: Data(), response: http)), target: SampleAPI.user("octocat"))
        #expect(
            Self.messages(log) == [
                "Response: 204 https://api.example.com/v1/users/octocat",
                "Response: 200 https://cdn.example.com/a?token=***",
            ])
    }

    @Test("the session's own header fields are logged with the request's, which win")
    func sessionHeaders() async throws {
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let log = Capture()
        let provider = Provider<Upload>(
            transport: URLSessionTransport(), plugins: [NetworkLoggerPlugin(configuration: log.configuration())])
        let file = try Scratch.folder().appendingPathComponent("body.bin")
        try Data(repeating: 7, count: 300).write(to: file)
        _ = try await provider.request(Upload(baseURL: server.baseURL, file: file))
        let headers = try #require(Self.messages(log).first { $0.hasPrefix("Request Headers #1: ") })
        let userAgent = try #require(URLSessionTransport.defaultHeaders["User-Agent"])
        #expect(headers.contains("User-Agent: \(userAgent)"))
        #expect(headers.contains("Accept-Language: "))
        #expect(headers.contains("Authorization: ***"))
    }

    @Test("a body sent from a file, a form or a stream is logged as Request Body Stream")
    func requestBodyStream() async throws {
        let log = Capture()
        let provider = Provider<Upload>(
            transport: ScriptedTransport(fallback: .json(200, "{}")),
            plugins: [NetworkLoggerPlugin(configuration: log.configuration(.verbose))])
        let file = try Scratch.folder().appendingPathComponent("body.bin")
        try Data(repeating: 7, count: 300).write(to: file)
        _ = try await provider.request(Upload(baseURL: URL(string: "https://api.example.com")!, file: file))
        #expect(Self.messages(log).contains("Request Body Stream #1: a file of 300 bytes"))
    }
}
