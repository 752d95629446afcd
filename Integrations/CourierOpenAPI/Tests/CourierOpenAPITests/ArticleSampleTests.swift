import Courier
import CourierOpenAPI
import Foundation
import Testing
import TodoAPI
import TodoService

/// The article's code is the code in ArticleSamples.swift, and it works.
@Suite("The DocC article's samples")
struct ArticleSampleTests {
    private static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    private static let article = here.appendingPathComponent(
        "../../Sources/CourierOpenAPI/CourierOpenAPI.docc/UsingCourierWithOpenAPIGenerator.md")

    @Test("Every paragraph of every Swift block of the article is compiled here, as written")
    func articleIsCompiled() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let samples = Self.trimmedLines(
            try String(contentsOf: Self.here.appendingPathComponent("ArticleSamples.swift"), encoding: .utf8))
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 5)
        for block in blocks {
            for paragraph in block.components(separatedBy: "\n\n") {
                let lines = Self.trimmedLines(paragraph)
                guard !lines.isEmpty else { continue }
                let found = samples.indices.contains { start in
                    start + lines.count <= samples.count && Array(samples[start..<start + lines.count]) == lines
                }
                #expect(found, "Not compiled in ArticleSamples.swift:\n\(paragraph)")
            }
        }
    }

    @Test("The examples run against the sample service")
    func examplesRun() async throws {
        let service = try TodoServer()
        let refreshClient = Client(serverURL: service.serverURL, transport: CourierTransport())
        let expired = Article.TodoToken(
            accessToken: TodoServer.accessToken(0), refreshToken: TodoServer.refreshToken(1))

        let todos = try await Article.sendThroughCourier(
            serverURL: service.serverURL, refreshClient: refreshClient, storedToken: expired)
        #expect(todos.map(\.title) == ["Buy milk", "Call Ann"])
        #expect(service.refreshes == 1)

        let stubbed = try await Article.stubbedClient(serverURL: service.serverURL).listTodos().ok.body.json
        #expect(stubbed.map(\.title) == ["Buy milk"])

        let authentication = AuthenticationInterceptor(
            authenticator: Article.TodoAuthenticator(refreshClient: refreshClient, serverURL: service.serverURL),
            credential: Article.TodoToken(
                accessToken: TodoServer.accessToken(2), refreshToken: TodoServer.refreshToken(2)))
        let viaMiddleware = Article.middlewareClient(serverURL: service.serverURL, authentication: authentication)
        #expect(try await viaMiddleware.listTodos().ok.body.json.count == 2)
    }

    private static func trimmedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
