import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `ClientTransport` that sends every call of a generated client through a Courier provider:
/// its plugins, interceptor (single-flight token refresh, retry policy), validation, logger,
/// stubs and transport.
///
/// ```swift
/// let provider = Provider<OpenAPIOperation>(
///     plugins: [NetworkLoggerPlugin()], interceptor: Interceptor(interceptors: [auth, .retryPolicy]))
/// let client = Client(serverURL: serverURL, transport: CourierTransport(provider: provider))
/// let todos = try await client.listTodos().ok.body.json
/// ```
/// Each call is an ``OpenAPIOperation`` target, sent with ``Courier/Provider/stream(_:progress:)``:
/// its body goes out as a stream and its answer's body comes back as the generated client reads
/// it. A status the operation's validation rejects (any non-2xx by default) goes to the
/// interceptor's retrier; when no retry follows, the generated client gets it as its answer, as it
/// would from any transport, with the start of its body (up to 64 KiB). Any other failure is
/// thrown as the provider's ``Courier/CourierError``, which the generated client wraps in its
/// `ClientError` as the `underlyingError`.
public struct CourierTransport: ClientTransport {
    /// The provider every call goes through.
    public let provider: Provider<OpenAPIOperation>
    /// Path templates by operation ID, for ``OpenAPIOperation/pathTemplate``.
    public let pathTemplates: [String: String]
    /// The statuses the pipeline accepts (see ``OpenAPIOperation/validationType``).
    public let validationType: ValidationType

    /// Creates a transport on `provider`.
    /// - Parameters:
    ///   - provider: The provider; one on ``Courier/URLSessionTransport/shared`` with no plugin by
    ///     default.
    ///   - pathTemplates: The document's path templates by operation ID (`["getTodo":
    ///     "/todos/{id}"]`), which the generated client does not hand over; none by default.
    ///   - validationType: The statuses the pipeline accepts; 2xx by default.
    public init(
        provider: Provider<OpenAPIOperation> = Provider(), pathTemplates: [String: String] = [:],
        validationType: ValidationType = .successCodes
    ) {
        self.provider = provider
        self.pathTemplates = pathTemplates
        self.validationType = validationType
    }

    /// Sends one generated call through the provider.
    /// - Parameters:
    ///   - request: The request the generated client made.
    ///   - body: Its body, if any.
    ///   - baseURL: The client's server URL.
    ///   - operationID: The operation's ID.
    /// - Returns: The answer and its body, streamed.
    /// - Throws: ``OpenAPIBridgeError`` for a request that makes no URL, or the provider's
    ///   ``Courier/CourierError``.
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let operation = try OpenAPIOperation(
            request: request, body: body, serverURL: baseURL, operationID: operationID,
            pathTemplate: pathTemplates[operationID], validationType: validationType)
        return try await Self.send(operation, through: provider)
    }

    /// Sends `operation` through `provider`: an accepted answer streamed, a rejected one whole.
    static func send(
        _ operation: OpenAPIOperation, through provider: Provider<OpenAPIOperation>
    ) async throws(CourierError) -> (HTTPResponse, HTTPBody?) {
        do {
            return OpenAPIAnswer.accepted(try await provider.stream(operation), method: operation.request.method)
        } catch {
            guard case .statusCode(let answer) = error else { throw error }
            return OpenAPIAnswer.rejected(answer, method: operation.request.method)
        }
    }
}
