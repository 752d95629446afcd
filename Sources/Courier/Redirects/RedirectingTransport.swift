import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows redirects above an engine that does not follow them itself, with Courier's rules (see
/// ``RedirectPolicy``): so that credential stripping, the 307/308 method and body rules, the
/// limit and the policy hold whatever engine sends the requests.
///
/// ``URLSessionTransport`` follows redirects this way (URLSession itself never does). Wrap your
/// own engine in it, and turn the engine's own redirect following off:
/// ```swift
/// let transport = RedirectingTransport(engine: MyEngineTransport(), policy: .follow)
/// ```
/// Each hop is a new exchange with the engine: a redirect's body is discarded (its temporary file
/// too), the request's body is sent again from its source for a 307 or 308, and the request's
/// total ``TransportRequest/timeout`` spans every hop.
public struct RedirectingTransport: Transport {
    /// The most redirects followed in a row, as URLSession's own limit; one more fails with
    /// ``TransportFailure/Kind/tooManyRedirects``.
    public static let maximumRedirects = 20

    /// The transport that sends each hop.
    public let engine: any Transport
    /// What to do with redirects.
    public let policy: RedirectPolicy

    /// Creates the transport.
    /// - Parameters:
    ///   - engine: Sends each hop; it must not follow redirects itself.
    ///   - policy: What to do with redirects; follow them (safely) by default.
    public init(engine: any Transport, policy: RedirectPolicy = .follow) {
        self.engine = engine
        self.policy = policy
    }

    /// Sends `request` and follows the redirects it leads to.
    /// - Parameter request: What to send.
    /// - Returns: The last response: the answer, or a redirect that is not followed.
    /// - Throws: What the engine throws, or ``TransportFailure/Kind/tooManyRedirects``.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await Self.follow(request, policy: policy) { try await engine.send($0) }
    }

    /// The engine's capabilities.
    public var capabilities: TransportCapabilities { engine.capabilities }

    /// Streams `request` and follows the redirects it leads to; a redirect's body is dropped
    /// unread, which ends its transfer.
    /// - Parameter request: What to send.
    /// - Returns: The last response: the answer, or a redirect that is not followed.
    /// - Throws: What the engine throws, or ``TransportFailure/Kind/tooManyRedirects``.
    public func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse {
        try await Self.followStream(request, policy: policy) { try await engine.stream($0) }
    }

    /// The redirect loop of a streamed request: a redirect's body is dropped unread.
    static func followStream(
        _ request: TransportRequest, policy: RedirectPolicy,
        hop: (TransportRequest) async throws -> StreamedTransportResponse
    ) async throws -> StreamedTransportResponse {
        try await loop(request, policy: policy, status: \.statusCode, head: \.response, discard: { _ in }, hop: hop)
    }

    /// The redirect loop of a whole-body request: a redirect's body file is deleted.
    static func follow(
        _ request: TransportRequest, policy: RedirectPolicy,
        hop: (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        try await loop(
            request, policy: policy, status: \.statusCode, head: \.response,
            discard: { if let file = $0.fileURL { try? FileManager.default.removeItem(at: file) } }, hop: hop)
    }

    /// Sends `request` with `hop` and follows its redirects: the loop every transport shares,
    /// whatever the shape of its answers.
    private static func loop<Answer>(
        _ request: TransportRequest, policy: RedirectPolicy, status: (Answer) -> Int,
        head: (Answer) -> HTTPURLResponse?, discard: (Answer) -> Void, hop: (TransportRequest) async throws -> Answer
    ) async throws -> Answer {
        let deadline = request.timeout.map { Deadline(after: $0, clock: request.timeouts?.clock ?? .system) }
        var current = request
        for _ in 0...maximumRedirects {
            current.timeout = deadline.map { max(0.001, $0.remaining) }
            let answer = try await hop(current)
            // The status first: an engine's head becomes an HTTPURLResponse only for a redirect.
            // Its range before the set: most answers are not redirects, and a set lookup hashes.
            let code = status(answer)
            guard (301...308).contains(code), RedirectPolicy.redirectStatusCodes.contains(code),
                let http = head(answer), let next = policy.nextRequest(after: http, for: current.urlRequest)
            else { return answer }
            discard(answer)
            // A redirect that turned the request into a GET sends no body, whatever its source.
            if next.httpMethod != current.urlRequest.httpMethod { current.body = .inline }
            current.urlRequest = current.cookies?.nextHop(after: http, fields: HeaderFields(http), next) ?? next
        }
        throw TransportFailure(kind: .tooManyRedirects, underlyingError: URLError(.httpTooManyRedirects))
    }
}
