import Courier
import CourierOpenAPI
import CourierTesting
import Dispatch
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TodoAPI
import TodoService

/// What a generated call does through either bridge: answers, bodies both ways, retries.
@Suite("Generated calls through Courier")
struct BridgeTests {
    @Test("Documented answers reach the generated client typed, a 404 included", arguments: Bridge.allCases)
    func answers(bridge: Bridge) async throws {
        let server = try TodoServer()
        let client = bridge.client(server, interceptor: bridge.authentication(server))

        let todos = try await client.listTodos(query: .init(limit: 1)).ok.body.json
        #expect(todos.map(\.title) == ["Buy milk"])
        #expect(server.requests.last?.target == "/v1/todos?limit=1")
        let created = try await client.createTodo(body: .json(.init(title: "Water plants"))).created.body.json
        #expect(created.title == "Water plants")
        #expect(created.id == 3)
        let missing = try await client.getTodo(path: .init(id: 99)).notFound.body.json
        #expect(missing.title == "Not found")
    }

    @Test("A streamed request body arrives whole; a streamed answer is read as it comes", arguments: Bridge.allCases)
    func streamedBodies(bridge: Bridge) async throws {
        let server = try TodoServer()
        // A token the service accepts: a one-shot body cannot be sent again after a 401.
        let client = bridge.client(server, interceptor: bridge.authentication(server, credential: .valid))
        let (chunks, writer) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
        for _ in 0..<48 { writer.yield(ArraySlice(repeating: 7, count: 64 << 10)) }
        writer.finish()
        let upload = HTTPBody(chunks, length: .unknown, iterationBehavior: .single)

        _ = try await client.uploadAttachment(path: .init(id: 1), body: .binary(upload)).noContent
        #expect(server.attachments == [1: 48 << 16])

        let export = try await client.exportTodos().ok.body.binary
        var lines = 0
        for try await line in export.asDecodedJSONLines(of: Components.Schemas.Todo.self) {
            lines += 1
            #expect(line.title == "Task \(lines)")
        }
        #expect(lines == 1000)
    }

    @Test("A retry sends a replayable body again and refuses a one-shot stream", arguments: Bridge.allCases)
    func retriedBodies(bridge: Bridge) async throws {
        let attempts = Guarded(0)
        let server = try LoopbackServer { request in
            let attempt = attempts.write {
                $0 += 1
                return $0
            }
            guard attempt.isMultiple(of: 2) else { return .json(#"{"title":"Busy"}"#, status: 503) }
            return request.method == "PUT"
                ? ServerReply(status: 204) : .json(#"{"id":7,"title":"Again","done":false}"#, status: 201)
        }
        let retry = RetryPolicy(exponentialBackoffScale: 0.01, retryableHTTPMethods: [.post, .put])
        let client = bridge.client(serverURL: server.baseURL.appendingPathComponent("v1"), interceptor: retry)

        let created = try await client.createTodo(body: .json(.init(title: "Again"))).created.body.json
        #expect(created.id == 7)
        #expect(server.requests.count == 2)
        #expect(server.requests[0].body == server.requests[1].body)

        let oneShot = HTTPBody(
            AsyncStream {
                $0.yield(ArraySlice("once".utf8))
                $0.finish()
            }, length: .known(4), iterationBehavior: .single)
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.uploadAttachment(path: .init(id: 1), body: .binary(oneShot))
        }
        guard case .underlying(let cause, let response)? = error?.underlyingError as? CourierError,
            case .streamNotReplayable? = cause as? TransferError
        else {
            Issue.record("Expected CourierError.underlying(.streamNotReplayable), got \(String(describing: error))")
            return
        }
        #expect(response?.statusCode == 503)
        #expect(server.requests.count == 3)
    }

    @Test("Plugins tell operations apart by ID, method and path template", arguments: Bridge.allCases)
    func operationIdentity(bridge: Bridge) async throws {
        let server = try TodoServer()
        let seen = Guarded<[String]>([])
        let plugin = OperationSpy { operation in
            seen.write {
                $0.append(
                    "\(operation.operationID) \(operation.method) \(operation.pathTemplate ?? "-") \(operation.renderedPath)"
                )
            }
        }
        let client = bridge.client(
            server, plugins: [plugin], interceptor: bridge.authentication(server, credential: .valid),
            pathTemplates: ["getTodo": "/todos/{id}"])

        _ = try await client.getTodo(path: .init(id: 2)).ok
        _ = try await client.listTodos(query: .init(limit: 5)).ok

        #expect(seen.read { $0 } == ["getTodo GET /todos/{id} /todos/2", "listTodos GET - /todos?limit=5"])
    }
}

/// A plugin that reports the operation of each call.
struct OperationSpy: PluginType {
    let report: @Sendable (OpenAPIOperation) -> Void

    func willSend(_ request: PreparedRequest, target: any TargetType) {
        if let operation = target as? OpenAPIOperation { report(operation) }
    }
}

/// Cancelling the caller's task ends a generated call at once, through either bridge.
@Suite("Cancellation of a generated call")
struct CancellationTests {
    @Test(
        "Cancelling the task while the server holds the answer throws Courier's cancellation",
        arguments: Bridge.allCases)
    func cancelledCall(bridge: Bridge) async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            arrived.yield()
            _ = release.wait(timeout: .now() + 10)
            return .json("[]")
        }
        defer { release.signal() }
        let recorder = CallRecorder()
        let client = bridge.client(
            serverURL: server.baseURL.appendingPathComponent("v1"), plugins: [RecordingPlugin("A", recorder: recorder)])

        let call = Task { try await client.listTodos() }
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        call.cancel()

        let error = await #expect(throws: ClientError.self) { _ = try await call.value }
        guard case .cancelled? = error?.underlyingError as? CourierError else {
            Issue.record("Expected CourierError.cancelled, got \(String(describing: error))")
            return
        }
        #expect(
            recorder.events.suffix(2) == [
                .didReceive("A", .failure(.cancellation)), .process("A", .failure(.cancellation)),
            ])
    }
}
