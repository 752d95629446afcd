import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime
import TodoAPI
import TodoService

/// A generated to-do client through Courier, against the to-do service on loopback: a logger with
/// redaction, a bearer token that has expired and is refreshed once for twenty concurrent calls,
/// a retry policy, a streamed upload and a streamed export.
@main
struct TodoSample {
    static func main() async throws {
        let service = try TodoServer()
        let attempts = AttemptCounter()
        let refreshClient = Client(serverURL: service.serverURL, transport: CourierTransport())
        let authentication = AuthenticationInterceptor(
            authenticator: TodoAuthenticator(refreshClient: refreshClient, serverURL: service.serverURL),
            credential: TodoToken.expired)
        let provider = Provider<OpenAPIOperation>(
            plugins: [attempts], interceptor: Interceptor(interceptors: [authentication, RetryPolicy.retryPolicy]))
        let client = Client(
            serverURL: service.serverURL,
            transport: CourierTransport(provider: provider, pathTemplates: ["getTodo": "/todos/{id}"]))

        try await listConcurrently(client, service: service)
        let created = try await client.createTodo(body: .json(.init(title: "Water plants"))).created.body.json
        print("created to-do \(created.id): \(created.title)")
        if case .notFound(let missing) = try await client.getTodo(path: .init(id: 99)) {
            print("getTodo 99: \(try missing.body.json.title) (404, returned to the client as documented)")
        }
        try await transferStreams(client, service: service)
        print("attempts by operation: \(attempts.summary)")
        print("Sample complete.")
    }

    /// Twenty calls at once with an expired token: one refresh, then all of them succeed.
    private static func listConcurrently(_ client: Client, service: TodoServer) async throws {
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await client.listTodos().ok.body.json.count }
            }
            return try await group.reduce(0, +)
        }
        print("listed \(counts) to-dos in 20 concurrent calls; token refreshes: \(service.refreshes)")
    }

    /// A 1 MiB attachment streamed up, and the export read line by line as it arrives.
    private static func transferStreams(_ client: Client, service: TodoServer) async throws {
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for _ in 0..<16 { continuation.yield(ArraySlice(repeating: 42, count: 64 << 10)) }
            continuation.finish()
        }
        let attachment = HTTPBody(chunks, length: .known(1 << 20), iterationBehavior: .single)
        _ = try await client.uploadAttachment(path: .init(id: 1), body: .binary(attachment)).noContent
        print("uploaded an attachment of \(service.attachments[1] ?? 0) bytes")
        var exported = 0
        let export = try await client.exportTodos().ok.body.binary
        for try await _ in export.asDecodedJSONLines(of: Components.Schemas.Todo.self) { exported += 1 }
        print("exported \(exported) to-dos, read as they arrived")
    }
}

/// Counts attempts per operation ID: a plugin telling generated operations apart.
final class AttemptCounter: PluginType, Sendable {
    private let counts = Guarded<[String: Int]>([:])

    func willSend(_ request: PreparedRequest, target: any TargetType) {
        guard let operation = target as? OpenAPIOperation else { return }
        counts.write { $0[operation.operationID, default: 0] += 1 }
    }

    /// `operation=attempts`, sorted by operation.
    var summary: String {
        counts.read { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") }
    }
}
