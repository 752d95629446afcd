import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import TodoAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the article "Using Courier with swift-openapi-generator", paragraph by paragraph as
// written there, so that it compiles (ArticleSampleTests checks that each paragraph is here and
// runs the examples).

/// The article's declarations, apart from the tests' own.
enum Article {
    struct TodoToken: AuthenticationCredential {
        let accessToken: String
        let refreshToken: String
    }

    struct TodoAuthenticator: Authenticator {
        let refreshClient: Client
        let serverURL: URL

        func apply(_ credential: TodoToken, to request: URLRequest) -> URLRequest {
            var signed = request
            signed.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
            return signed
        }

        func refresh(_ credential: TodoToken) async throws -> TodoToken {
            let pair = try await refreshClient.refreshToken(body: .json(.init(refreshToken: credential.refreshToken)))
                .ok.body.json
            return TodoToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
        }

        // The token goes to the API's own origin only.
        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            let url = request.url
            return url?.scheme == serverURL.scheme && url?.host == serverURL.host && url?.port == serverURL.port
        }
    }

    struct OperationLog: PluginType {
        func willSend(_ request: PreparedRequest, target: any TargetType) {
            guard let operation = target as? OpenAPIOperation else { return }
            print(operation.operationID, operation.method, operation.pathTemplate ?? operation.renderedPath)
        }
    }

    /// "Send a generated client through Courier", then "Tell operations apart".
    static func sendThroughCourier(serverURL: URL, refreshClient: Client, storedToken: TodoToken) async throws
        -> [Components.Schemas.Todo]
    {
        let authentication = AuthenticationInterceptor(
            authenticator: TodoAuthenticator(refreshClient: refreshClient, serverURL: serverURL),
            credential: storedToken)
        let provider = Provider<OpenAPIOperation>(
            plugins: [NetworkLoggerPlugin()],
            interceptor: Interceptor(interceptors: [authentication, .retryPolicy]))
        let client = Client(serverURL: serverURL, transport: CourierTransport(provider: provider))

        let todos = try await client.listTodos().ok.body.json

        let transport = CourierTransport(provider: provider, pathTemplates: ["getTodo": "/todos/{id}"])
        _ = try await Client(serverURL: serverURL, transport: transport).getTodo(path: .init(id: 1)).ok
        return todos
    }

    /// "Stub the API in tests".
    static func stubbedClient(serverURL: URL) -> Client {
        let stubbed = Provider<OpenAPIOperation>(
            endpointClosure: { operation in
                Provider.defaultEndpointMapping(for: operation).replacing(sampleResponseClosure: {
                    operation.operationID == "listTodos"
                        ? .networkResponse(200, Data(#"[{"id":1,"title":"Buy milk","done":false}]"#.utf8))
                        : .networkResponse(404, Data())
                })
            },
            stubClosure: Provider.immediatelyStub)
        let testClient = Client(serverURL: serverURL, transport: CourierTransport(provider: stubbed))
        return testClient
    }

    /// "Keep your OpenAPI transport: the middleware".
    static func middlewareClient(serverURL: URL, authentication: AuthenticationInterceptor<TodoAuthenticator>)
        -> Client
    {
        let courier = CourierMiddleware(
            plugins: [NetworkLoggerPlugin()],
            interceptor: Interceptor(interceptors: [authentication, .retryPolicy]))
        let middlewareClient = Client(
            serverURL: serverURL, transport: OpenAPIURLSession.URLSessionTransport(), middlewares: [courier])
        return middlewareClient
    }
}
