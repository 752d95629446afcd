import Courier
import CourierOpenAPI
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import Testing
import TodoAPI
import TodoService

/// The whole recorded hook sequence of a generated call equals the pipeline contract
/// (../CALL-ORDER in Courier's documentation), through both bridges.
@Suite("The call order of a generated call")
struct CallOrderTests {
    @Test("A call answered 503 then 200: every hook, in the contract's order", arguments: Bridge.allCases)
    func retriedCall(bridge: Bridge) async throws {
        let attempts = Guarded(0)
        let server = try LoopbackServer { _ in
            attempts.write {
                $0 += 1
                return $0
            } == 1
                ? .json(#"{"title":"Busy"}"#, status: 503) : .json(#"[{"id":1,"title":"Buy milk","done":false}]"#)
        }
        let recorder = CallRecorder()
        let interceptor = RecordingInterceptor(
            recorder: recorder, retry: { _, context in context.attempt == 1 ? .retry : .doNotRetry })
        let plugin = RecordingPlugin("A", recorder: recorder, observesAttempts: true)
        let client = recordingClient(
            bridge, serverURL: server.baseURL, plugin: plugin, interceptor: interceptor, recorder: recorder)

        let todos = try await client.listTodos().ok.body.json
        #expect(todos.map(\.title) == ["Buy milk"])
        #expect(await recorder.wait(for: .didFinishStream("A", .completed)))

        #expect(
            recorder.events == [
                .prepare("A"), .willSend("A", attempt: 1), .adapt(attempt: 1), .willTransmit("A", attempt: 1), .send,
                .didCompleteAttempt("A", attempt: 1, .failure(.validation)), .retry(attempt: 1, .failure(.validation)),
                .prepare("A"), .willSend("A", attempt: 2), .adapt(attempt: 2), .willTransmit("A", attempt: 2), .send,
                .didCompleteAttempt("A", attempt: 2, .success(200)), .didReceive("A", .success(200)),
                .process("A", .success(200)), .didFinishStream("A", .completed),
            ])
    }

    @Test(
        "A rejected answer that is not retried: the client gets it, the hooks see the failure",
        arguments: Bridge.allCases)
    func rejectedCall(bridge: Bridge) async throws {
        let server = try LoopbackServer { _ in .json(#"{"title":"Not found"}"#, status: 404) }
        let recorder = CallRecorder()
        let plugin = RecordingPlugin("A", recorder: recorder, observesAttempts: true)
        let client = recordingClient(
            bridge, serverURL: server.baseURL, plugin: plugin, interceptor: RecordingInterceptor(recorder: recorder),
            recorder: recorder)

        let problem = try await client.getTodo(path: .init(id: 9)).notFound.body.json
        #expect(problem.title == "Not found")
        #expect(
            recorder.events == [
                .prepare("A"), .willSend("A", attempt: 1), .adapt(attempt: 1), .willTransmit("A", attempt: 1), .send,
                .didCompleteAttempt("A", attempt: 1, .failure(.validation)), .retry(attempt: 1, .failure(.validation)),
                .didReceive("A", .failure(.validation)), .process("A", .failure(.validation)),
            ])
    }

    /// A client whose transport exchanges are recorded as `.send`.
    private func recordingClient(
        _ bridge: Bridge, serverURL: URL, plugin: RecordingPlugin, interceptor: RecordingInterceptor,
        recorder: CallRecorder
    ) -> Client {
        switch bridge {
        case .transport:
            let provider = Provider<OpenAPIOperation>(
                transport: RecordingTransport(Courier.URLSessionTransport.shared, recorder: recorder),
                plugins: [plugin],
                interceptor: interceptor)
            return Client(serverURL: serverURL, transport: CourierTransport(provider: provider))
        case .middleware:
            let courier = CourierMiddleware(plugins: [plugin], interceptor: interceptor)
            return Client(
                serverURL: serverURL, transport: URLSessionOpenAPITransport(),
                middlewares: [courier, SendRecorder(recorder: recorder)])
        }
    }
}

/// Records `.send` where the stack's transport is called, under a ``CourierMiddleware``.
struct SendRecorder: ClientMiddleware {
    let recorder: CallRecorder

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        recorder.record(.send)
        return try await next(request, body, baseURL)
    }
}
