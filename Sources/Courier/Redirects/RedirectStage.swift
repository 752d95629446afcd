import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows redirects above every engine with Courier's rules (see ``RedirectPolicy``): credential
/// stripping across origins, the 307/308 method and body rules, no https downgrade (a
/// ``RedirectError`` unless the policy allows it), the limit and
/// the policy hold whatever engine sends the hops, one a user wrote included.
///
/// Each hop is a new exchange with the engine: a redirect's body is discarded (its temporary file
/// too; a streamed one is dropped unread, which ends its transfer), the request's body is sent
/// again from its source for a 307 or 308, the cookie jar stores each redirect's `Set-Cookie` and
/// gives each hop its own cookies, and the request's ``TransportRequest/timeout`` spans every hop.
struct RedirectStage: Stage {
    /// The most redirects followed in a row, as URLSession's own limit; one more fails with
    /// ``TransportFailure/Kind/tooManyRedirects``.
    static let maximumRedirects = 20

    /// What to do with redirects.
    let policy: RedirectPolicy

    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        // A socket's handshake is not redirected (RFC 6455 §4.1: a 3xx is the server's
        // refusal, which the provider's validation fails with its response).
        guard request.webSocket == nil else { return try await next(request, context) }
        var current = request
        // An engine that ends a task in one callback may lose the body of a redirect it is not
        // asked to follow (URLSession on Linux): it keeps it only when told it may be the answer.
        if !policy.followsEveryRedirect { current.keepsRedirectBodies = true }
        let deadline = request.timeout.map { Deadline(after: $0, clock: context.timeouts?.clock ?? .system) }
        for _ in 0...Self.maximumRedirects {
            if let deadline { current.timeout = max(0.001, deadline.remaining) }
            let answer = try await next(current, context)
            // Its range before the set: most answers are not redirects, and a set lookup hashes.
            let code = answer.statusCode
            guard (301...308).contains(code), RedirectPolicy.redirectStatusCodes.contains(code),
                let http = answer.response, let nextRequest = try followed(answer, http, current)
            else { return answer }
            if let file = answer.fileURL { try? FileManager.default.removeItem(at: file) }
            // A redirect that turned the request into a GET sends no body, whatever its source.
            if nextRequest.httpMethod != current.urlRequest.httpMethod { current.body = .inline }
            current.urlRequest =
                context.cookies?.nextHop(after: http, fields: answer.headerFields, nextRequest) ?? nextRequest
        }
        throw TransportFailure(kind: .tooManyRedirects, underlyingError: URLError(.httpTooManyRedirects))
    }

    /// The request that follows `answer`, or `nil` when it is the answer; a downgrade the policy
    /// refuses discards the redirect's body and fails.
    private func followed(
        _ answer: TransportResponse, _ http: HTTPURLResponse, _ current: TransportRequest
    ) throws(RedirectError) -> URLRequest? {
        do {
            return try policy.followingRequest(after: http, for: current.urlRequest)
        } catch {
            if let file = answer.fileURL { try? FileManager.default.removeItem(at: file) }
            throw error
        }
    }
}
