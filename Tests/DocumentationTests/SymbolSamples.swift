import Foundation

/// Turns the code examples of the symbol documentation comments (`/// ```swift` blocks in
/// Sources/) into one Swift file, SymbolDocumentationSamples.swift, part of this test target, so
/// that every example compiles.
///
/// Each example gets a function of its own (examples of different symbols reuse names such as
/// `provider`). An example that is a fragment (a member, an expression) or uses a value the
/// reader brings gets the few lines around it listed in ``contexts``, kept here rather than in
/// the documentation; the types and values readers bring are in Prelude.swift. Rules shared with
/// the articles: `import` lines are dropped, a block starting with `extension` goes at file scope,
/// every `let` at the left margin is marked as used.
enum SymbolSamples {
    /// What surrounds an example: lines before and after it, inside its function or, for
    /// `fileScope`, at file scope instead of in a function.
    struct Context {
        var before: [String] = []
        var after: [String] = []
        var fileScope = false
    }

    /// Contexts by "File.swift#N", the Nth example of that file.
    static let contexts: [String: Context] = [
        "URLEncoding.swift#1": Context(before: ["let task: HTTPTask ="], after: ["_ = task"]),
        "CourierError.swift#1": Context(),
        "Provider+WebSocket.swift#1": Context(before: ["let provider = Provider<Chat>()"]),
        "Outbox.swift#1": Context(before: [
            "let provider = Provider<Posts>()", "let supportFolder = FileManager.default.temporaryDirectory",
            "func markSent(_ id: UUID) {}", "func showFailure(_ outcome: OutboxOutcome<Posts>) {}",
        ]),
        "Provider+Outbox.swift#1": Context(before: ["let provider = Provider<Posts>()"]),
        "OutboxOptions.swift#1": Context(before: [
            "let provider = Provider<Posts>()", "let folder = FileManager.default.temporaryDirectory",
        ]),
        "WebSocket.swift#1": Context(before: ["let provider = Provider<Chat>()"]),
        "WebSocketOptions.swift#1": Context(before: ["let provider = Provider<Chat>()"]),
        "WebSocketCompression.swift#1": Context(before: ["let provider = Provider<Chat>()"]),
        "WebSocketCloseCode.swift#1": Context(before: [
            "let socket = try await Provider<Chat>().webSocket(.chat(room: 1))"
        ]),
        "WebSocketMessage.swift#1": Context(before: [
            "let socket = try await Provider<Chat>().webSocket(.chat(room: 1))"
        ]),
        "WebSocketScript.swift#1": Context(before: ["struct ChatTarget {"], after: ["}"]),
        "Interceptor.swift#1": Context(before: [
            "let apiKey = Adapter { request, _ in request }",
            "let retryUnavailable = Retrier { _, _, _ in .doNotRetry }",
            "let auth = MyAuth()",
        ]),
        "NetworkLoggerPlugin.swift#1": Context(before: ["_ ="]),
        "Provider+Requests.swift#3": Context(before: [
            "let provider = Provider<Files>()", #"let file = URL(fileURLWithPath: "/tmp/report.pdf")"#,
        ]),
        "Provider+Streaming.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "Provider+Streaming.swift#2": Context(before: ["let provider = Provider<Streams>()"]),
        "EventTerminator.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "ServerSentEvent.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "StreamedResponse.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "StreamedResponse.swift#2": Context(before: [
            "let provider = Provider<Streams>()", "let streamed = try await provider.stream(.completion(prompt))",
        ]),
        "ServerSentEventParser.swift#1": Context(before: [
            "let body = AsyncThrowingStream<Data, any Error> { $0.finish() }"
        ]),
        "Response+Mapping.swift#1": Context(before: ["let response = sampleResponse"]),
        "HeaderFields.swift#1": Context(before: ["let response = sampleResponse"]),
        "SampleStream.swift#1": Context(before: ["extension Streams {"], after: ["}"], fileScope: true),
        "HTTPTask.swift#2": Context(
            before: [
                "enum SearchAPI {", "    struct Item: Encodable, Sendable {}",
                "    case search(String), create(Item), zen",
            ], after: ["}"], fileScope: true),
        "CacheTestsTable.swift#1": Context(before: [#"let casesFile = URL(fileURLWithPath: "/tmp/cases.json")"#]),
        "ResiliencePolicy.swift#2": Context(
            before: ["enum SearchPolicies {", "    case query, suggestions"], after: ["}"], fileScope: true),
        "Idempotency.swift#1": Context(
            before: ["enum PaymentsAPI {", "    case pay, refunds"], after: ["}"], fileScope: true),
        "MultipartFormData+Stream.swift#1": Context(before: ["let form = MultipartFormData()"]),
        "TransportBody.swift#1": Context(before: ["let task = Task<Void, Never> {}"]),
        "TransportBody.swift#2": Context(
            before: [
                #"let request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://example.com")!))"#
            ],
            after: ["_ = (body, writer)"]),
        "TransportBody.swift#3": Context(before: [
            "let source = ExampleChunkSource()", "let request = Task<Void, Never> {}",
        ]),
        "TransportConformance.swift#1": Context(
            before: [
                #"@Suite(.disabled("compiled, not run: a documentation example"))"#, "struct ConformanceExample {",
            ],
            after: ["}"], fileScope: true),
        "WebSocketConformance.swift#1": Context(
            before: [
                #"@Suite(.disabled("compiled, not run: a documentation example"))"#,
                "struct SocketConformanceExample {",
                "    struct MyTransport: Transport {",
                "        func send(_ request: TransportRequest) async throws -> TransportResponse {",
                "            throw URLError(.unsupportedURL)",
                "        }",
                "    }",
            ],
            after: ["}"], fileScope: true),
        "CallRecorder.swift#1": Context(before: ["let recorder = CallRecorder()", "let target = GitHub.zen"]),
        "HookEvent.swift#1": Context(before: ["let recorder = CallRecorder()"]),
        "RecordingInterceptor.swift#1": Context(before: ["let recorder = CallRecorder()"], after: ["_ = interceptor"]),
        "ScriptedTransport.swift#1": Context(before: ["let auth = MyAuth()"]),
        "MultipartParser.swift#1": Context(before: ["func parts(of request: ServerRequest) {"], after: ["}"]),
        "LoopbackServer.swift#2": Context(before: ["let handler: LoopbackServer.Handler = { _ in ServerReply() }"]),
        "EventReconnection.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "StreamingError.swift#1": Context(before: ["let provider = Provider<Streams>()"]),
        "TargetType.swift#2": Context(before: ["extension Status {"], after: ["}"], fileScope: true),
        "Authenticator.swift#3": Context(before: ["extension OAuthAuthenticator {"], after: ["}"], fileScope: true),
        "RequestContext.swift#1": Context(
            before: ["func decide(_ context: RequestContext) -> RetryResult {"], after: ["}"]),
        "ServerReply.swift#1": Context(before: ["let reply: ServerReply ="], after: ["_ = reply"]),
    ]

    /// The Swift files of Sources/, sorted.
    static func sourceFiles(root: URL) throws -> [URL] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// The generated file.
    static func generate(root: URL) throws -> String {
        var output = """
            // Generated from the symbol documentation comments in Sources/ by DocumentationSamplesTests:
            // do not edit. Update: COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples
            // swift-format-ignore-file

            import Courier
            @_spi(CacheTests) import CourierTesting
            import Foundation
            import Testing

            #if canImport(FoundationNetworking)
                import FoundationNetworking
            #endif

            """
        for file in try sourceFiles(root: root) {
            let blocks = examples(in: try String(contentsOf: file, encoding: .utf8))
            for (index, block) in blocks.enumerated() {
                let key = "\(file.lastPathComponent)#\(index + 1)"
                output +=
                    "\n// \(key)\n" + render(block, name: functionName(file, index + 1), context: contexts[key]) + "\n"
            }
        }
        return output
    }

    private static func render(_ block: [String], name: String, context: Context?) -> String {
        let context = context ?? Context()
        let lines =
            context.before + block + block.compactMap(SampleExtractor.declaredName).map { "_ = \($0)" } + context.after
        if context.fileScope || block.first?.hasPrefix("extension ") == true {
            return lines.joined(separator: "\n")
        }
        let body = lines.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return "@Sendable func \(name)() async throws {\n\(body)\n}"
    }

    /// The `swift` blocks of a file's `///` comments, without the comment marks and imports.
    static func examples(in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else {
                current = nil
                continue
            }
            var content = String(trimmed.dropFirst(3))
            if content.hasPrefix(" ") { content.removeFirst() }
            if current == nil, content == "```swift" {
                current = []
            } else if current != nil, content == "```" {
                blocks.append(current ?? [])
                current = nil
            } else if current != nil, !content.trimmingCharacters(in: .whitespaces).hasPrefix("import ") {
                current?.append(content)
            }
        }
        return blocks
    }

    private static func functionName(_ file: URL, _ index: Int) -> String {
        let base = file.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber }
        return base.prefix(1).lowercased() + base.dropFirst() + "Example\(index)"
    }
}
