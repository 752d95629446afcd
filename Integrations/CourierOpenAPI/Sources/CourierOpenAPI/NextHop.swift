import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The rest of an OpenAPI middleware stack, for the one call a ``CourierMiddleware`` is running,
/// bound to the task that runs the call's pipeline.
///
/// The stack's `next` may not escape `intercept`, and a pipeline may reach its transport from
/// tasks of its own (a timeout's, a token refresh's). So the transport never calls `next`: it
/// hands each attempt to the middleware (``send(_:body:baseURL:)``), which calls `next` in a child
/// task of its own scope. An attempt handed over after the call ended fails with
/// ``OpenAPIBridgeError/notInsideMiddleware``.
struct NextHop: Sendable {
    /// One attempt, waiting for the rest of the stack to answer it.
    struct Attempt: Sendable {
        let request: HTTPRequest
        let body: HTTPBody?
        let baseURL: URL
        let answer: CheckedContinuation<(HTTPResponse, HTTPBody?), any Error>
    }

    /// Where attempts go to the middleware.
    let attempts: AsyncStream<Attempt>.Continuation
    /// The base URL the call came with.
    let baseURL: URL

    /// The hop of the call the current task runs, if any.
    @TaskLocal static var current: NextHop?

    /// Sends one attempt down the rest of the stack and waits for its answer.
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (HTTPResponse, HTTPBody?) {
        try await withCheckedThrowingContinuation { answer in
            let attempt = Attempt(request: request, body: body, baseURL: baseURL, answer: answer)
            if case .terminated = attempts.yield(attempt) {
                answer.resume(throwing: OpenAPIBridgeError.notInsideMiddleware)
            }
        }
    }
}
