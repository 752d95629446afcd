import Courier
import CourierOpenAPI
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import TodoAPI
import TodoService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What only ``CourierTransport`` does: Courier's redirect rules, stubs, and its errors.
@Suite("CourierTransport")
struct CourierTransportTests {
    @Test("A redirect to another origin never carries the token")
    func redirectDropsToken() async throws {
        let elsewhere = try LoopbackServer { _ in .json("[]") }
        let api = try TodoServer()
        let redirecting = try LoopbackServer { request in
            request.path == "/v1/auth/refresh"
                ? ServerReply(status: 404)
                : ServerReply(status: 307, headers: ["Location": elsewhere.baseURL.absoluteString + "/v1/todos"])
        }
        let authenticator = TodoAuthenticator(
            refreshClient: Bridge.transport.client(api), serverURL: redirecting.baseURL.appendingPathComponent("v1"))
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, credential: TodoToken(accessToken: "access-secret-9", refreshToken: "r"))
        let client = Bridge.transport.client(
            serverURL: redirecting.baseURL.appendingPathComponent("v1"), interceptor: interceptor)

        let todos = try await client.listTodos().ok.body.json
        #expect(todos.isEmpty)
        #expect(redirecting.requests.first?.header("Authorization") == "Bearer access-secret-9")
        #expect(elsewhere.requests.count == 1)
        #expect(elsewhere.requests.first?.header("Authorization") == nil)
    }

    @Test("Stubs answer generated calls through the whole pipeline, with no server")
    func stubs() async throws {
        let recorder = CallRecorder()
        let provider = Provider<OpenAPIOperation>(
            endpointClosure: { operation in
                let sample = operation.operationID == "listTodos" ? #"[{"id":5,"title":"Stubbed","done":true}]"# : "{}"
                return Provider.defaultEndpointMapping(for: operation).replacing(sampleResponseClosure: {
                    .networkResponse(200, Data(sample.utf8))
                })
            },
            stubClosure: Provider.immediatelyStub, plugins: [RecordingPlugin("A", recorder: recorder)])
        let client = Client(
            serverURL: URL(string: "https://todo.invalid/v1")!, transport: CourierTransport(provider: provider))

        let todos = try await client.listTodos().ok.body.json
        #expect(todos.map(\.title) == ["Stubbed"])
        #expect(recorder.events.prefix(2) == [.prepare("A"), .willSend("A", attempt: 1)])
    }

    @Test("A transport failure reaches the generated client as ClientError, Courier's error as its cause")
    func transportFailure() async throws {
        let server = try LoopbackServer { _ in .json("[]") }
        let url = server.baseURL.appendingPathComponent("v1")
        server.stop()
        let client = Bridge.transport.client(serverURL: url)

        let error = await #expect(throws: ClientError.self) { _ = try await client.listTodos() }
        #expect(error?.operationID == "listTodos")
        guard case .transport(let failure, _)? = error?.underlyingError as? CourierError else {
            Issue.record("Expected CourierError.transport, got \(String(describing: error))")
            return
        }
        #expect((failure as? TransportFailure)?.kind == .cannotConnect)
    }

    @Test("A path that names another host is refused, not sent")
    func foreignPathRefused() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "//other.example/steal")
        #expect(throws: OpenAPIBridgeError.self) {
            _ = try OpenAPIOperation(
                request: request, body: nil, serverURL: URL(string: "https://api.example/v1")!, operationID: "x")
        }
    }
}
