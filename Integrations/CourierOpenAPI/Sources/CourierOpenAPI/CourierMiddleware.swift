import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `ClientMiddleware` that runs Courier's plugins and interceptor inside any OpenAPI transport
/// stack (swift-openapi-urlsession, swift-openapi-async-http-client, …), for teams that keep
/// their transport.
///
/// ```swift
/// let courier = CourierMiddleware(
///     plugins: [NetworkLoggerPlugin()], interceptor: Interceptor(interceptors: [auth, .retryPolicy]))
/// let client = Client(
///     serverURL: serverURL, transport: OpenAPIURLSession.URLSessionTransport(), middlewares: [courier])
/// ```
/// Each call runs the whole pipeline of an ``OpenAPIOperation`` target, in the order of Courier's
/// CallOrder article: per attempt `prepare`, `willSend`, `adapt`, the rest of the middleware stack
/// (`next`), validation and `retry`; then, once, `didReceive` and `process`. A retry sends the
/// call down the stack again with its body: a body the generated client can iterate more than once
/// is re-sent, and a one-shot stream is not: the call fails with
/// ``Courier/CourierError/underlying(_:_:)`` carrying ``Courier/TransferError/streamNotReplayable``
/// and the answer that asked for the retry, rather than sending an empty or partial body. A
/// rejected status that is not retried is returned up the stack as the answer; any other failure
/// is thrown as ``Courier/CourierError``.
///
/// The stack's transport follows redirects itself, so Courier's redirect rules do not apply here
/// (on Linux, FoundationNetworking forwards `Authorization` to another origin on a redirect); with
/// ``CourierTransport`` they do.
public struct CourierMiddleware: ClientMiddleware {
    /// The provider that runs each call's pipeline; its transport is the rest of the stack.
    let provider: Provider<OpenAPIOperation>
    /// Path templates by operation ID, for ``OpenAPIOperation/pathTemplate``.
    public let pathTemplates: [String: String]
    /// The statuses the pipeline accepts (see ``OpenAPIOperation/validationType``).
    public let validationType: ValidationType

    /// Creates a middleware.
    /// - Parameters:
    ///   - plugins: The plugins, in the order they are called; none by default.
    ///   - interceptor: Adapts attempts and decides retries; none by default.
    ///   - pathTemplates: The document's path templates by operation ID; none by default.
    ///   - validationType: The statuses the pipeline accepts; 2xx by default.
    public init(
        plugins: [any PluginType] = [], interceptor: (any RequestInterceptor)? = nil,
        pathTemplates: [String: String] = [:], validationType: ValidationType = .successCodes
    ) {
        // The stack's transport answers redirects; a 3xx it hands back is the answer, as it was.
        self.provider = Provider(
            transport: NextHopTransport(), plugins: plugins, interceptor: interceptor,
            options: ProviderOptions(redirects: .refuse))
        self.pathTemplates = pathTemplates
        self.validationType = validationType
    }

    /// Runs one call through Courier's pipeline, each attempt through `next`.
    /// - Parameters:
    ///   - request: The request, as the middlewares before this one left it.
    ///   - body: Its body, if any.
    ///   - baseURL: The client's server URL.
    ///   - operationID: The operation's ID.
    ///   - next: The rest of the stack.
    /// - Returns: The answer, its body streamed.
    /// - Throws: ``OpenAPIBridgeError`` for a request that makes no URL, or the pipeline's
    ///   ``Courier/CourierError``.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let operation = try OpenAPIOperation(
            request: request, body: body, serverURL: baseURL, operationID: operationID,
            pathTemplate: pathTemplates[operationID], validationType: validationType)
        return try await withoutActuallyEscaping(next) { next in
            try await Self.run(operation, through: provider, baseURL: baseURL, next: next)
        }
    }

    /// Runs the pipeline of `operation` in a child task and each of its attempts through `next`
    /// in child tasks of this scope, so that `next` never outlives the call: when the pipeline
    /// ends, attempts still running (one a timeout abandoned) are cancelled and awaited.
    private static func run(
        _ operation: OpenAPIOperation, through provider: Provider<OpenAPIOperation>, baseURL: URL,
        next: @escaping @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (attempts, intake) = AsyncStream.makeStream(of: NextHop.Attempt.self)
        let hop = NextHop(attempts: intake, baseURL: baseURL)
        return try await withThrowingTaskGroup(of: (HTTPResponse, HTTPBody?)?.self) { group in
            group.addTask {
                defer { intake.finish() }
                return try await NextHop.$current.withValue(hop) {
                    try await CourierTransport.send(operation, through: provider)
                }
            }
            for await attempt in attempts {
                group.addTask {
                    do {
                        attempt.answer.resume(returning: try await next(attempt.request, attempt.body, attempt.baseURL))
                    } catch {
                        attempt.answer.resume(throwing: error)
                    }
                    return nil
                }
            }
            group.cancelAll()
            var answer: (HTTPResponse, HTTPBody?)?
            while let result = try await group.next() {
                if let result { answer = result }
            }
            guard let answer else { throw CourierError.cancelled }
            return answer
        }
    }
}
