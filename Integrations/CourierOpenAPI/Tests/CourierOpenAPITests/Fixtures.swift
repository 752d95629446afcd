import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import TodoAPI
import TodoService

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A log that keeps every entry, to search for secrets.
final class LogLines: Sendable {
    private let lines = Guarded<[String]>([])

    /// Every entry so far, joined.
    var text: String { lines.read { $0.joined(separator: "\n") } }

    /// A verbose logger (headers and bodies) writing here.
    var plugin: NetworkLoggerPlugin {
        NetworkLoggerPlugin(
            configuration: .init(
                output: { [lines] _, entries in lines.write { $0.append(contentsOf: entries) } },
                logOptions: .verbose))
    }
}

/// The two bridges, for tests that run on both.
enum Bridge: String, CaseIterable, CustomStringConvertible, Sendable {
    /// ``CourierTransport``: Courier's provider is the client's transport.
    case transport
    /// ``CourierMiddleware`` over swift-openapi-urlsession's transport.
    case middleware

    var description: String { rawValue }

    /// A generated client on `server` through this bridge, with `plugins` and `interceptor`.
    func client(
        _ server: TodoServer, plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil,
        pathTemplates: [String: String] = [:]
    ) -> Client {
        client(serverURL: server.serverURL, plugins: plugins, interceptor: interceptor, pathTemplates: pathTemplates)
    }

    /// A generated client on `serverURL` through this bridge, with `plugins` and `interceptor`.
    func client(
        serverURL: URL, plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil,
        pathTemplates: [String: String] = [:]
    ) -> Client {
        switch self {
        case .transport:
            let provider = Provider<OpenAPIOperation>(plugins: plugins, interceptor: interceptor)
            return Client(
                serverURL: serverURL, transport: CourierTransport(provider: provider, pathTemplates: pathTemplates))
        case .middleware:
            let middleware = CourierMiddleware(plugins: plugins, interceptor: interceptor, pathTemplates: pathTemplates)
            return Client(serverURL: serverURL, transport: URLSessionOpenAPITransport(), middlewares: [middleware])
        }
    }

    /// An authentication interceptor for `server`, starting from `credential`.
    func authentication(
        _ server: TodoServer, credential: TodoToken = .expired
    ) -> AuthenticationInterceptor<TodoAuthenticator> {
        let refreshClient = client(server)
        return AuthenticationInterceptor(
            authenticator: TodoAuthenticator(refreshClient: refreshClient, serverURL: server.serverURL),
            credential: credential)
    }
}

/// swift-openapi-urlsession's transport (its name is also Courier's).
typealias URLSessionOpenAPITransport = OpenAPIURLSession.URLSessionTransport
