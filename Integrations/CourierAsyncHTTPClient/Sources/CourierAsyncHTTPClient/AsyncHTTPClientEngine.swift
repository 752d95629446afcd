import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One hop on AsyncHTTPClient: the request as it is, no redirect followed (the provider follows
/// them above it, with Courier's rules).
struct AsyncHTTPClientEngine: Sendable {
    let client: HTTPClient
    /// The one timer behind every exchange's total timeout.
    let timers = DeadlineTimers()
    /// The connections to pinned hosts, which AsyncHTTPClient's pool cannot make.
    let pinned = PinnedConnections()

    /// The request and its whole answer. When the connection closes before any answer (a pooled
    /// connection the server had closed, or a server that closed after reading the request), an
    /// idempotent request whose body can be sent again is sent once more on a new connection, as
    /// URLSessionTransport does; ``TransportResponse/resends`` counts it. Anything else fails.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if Self.readsWhole(request) { return try await sendWhole(request) }
        let deadline = ExchangeDeadline(request.timeout, timers: timers)
        defer { deadline.end() }
        var resends = 0
        while true {
            do {
                var response = try await deadline.run {
                    let response: HTTPClientResponse
                    do {
                        response = try await execute(request, deadline: deadline)
                    } catch {
                        throw Unanswered(error: error)
                    }
                    return try await ResponseHead(response, request: request).collect(response.body, for: request)
                }
                response.resends = resends
                return response
            } catch let unanswered as Unanswered {
                let failure = AsyncHTTPClientFailure.map(unanswered.error)
                guard resends < Self.maximumResends, Self.mayResend(request, after: failure) else { throw failure }
                resends += 1
            } catch {
                throw AsyncHTTPClientFailure.map(error)
            }
        }
    }

    /// A failure before the response head arrived.
    private struct Unanswered: Error {
        let error: any Error
    }

    /// The most times a request is sent again because its connection closed unanswered.
    static let maximumResends = 1

    /// Whether a request whose connection closed before an answer may go again: idempotent (the
    /// server may have acted on anything else), not cancelled, and with a body that can be sent
    /// again (none or its own bytes, a file, a form; a stream only if it can be read again).
    static func mayResend(_ request: TransportRequest, after failure: any Error) -> Bool {
        guard (failure as? TransportFailure)?.kind == .connectionLost, request.isIdempotent, !Task.isCancelled else {
            return false
        }
        switch request.body {
        case .inline, .file, .multipart: return true
        case .stream(let stream): return stream.canBeSent
        }
    }

    /// The request's head, with its body read as the consumer reads it.
    func streamed(_ request: TransportRequest) async throws -> TransportResponse {
        let deadline = ExchangeDeadline(request.timeout, timers: timers)
        let response: HTTPClientResponse
        do {
            response = try await deadline.run { try await execute(request, deadline: deadline) }
        } catch {
            deadline.end()
            throw AsyncHTTPClientFailure.map(error)
        }
        let head = ResponseHead(response, request: request)
        let reader = BodyReader(response.body, head: head, progress: request.progress, deadline: deadline)
        // The reader goes with the body: once the consumer stops, it is released, and with it
        // AsyncHTTPClient's body iterator, which cancels the unfinished request.
        let body = TransportBody(pulling: { try await reader.next() }, onTermination: {})
        return head.recorded(
            TransportResponse(statusCode: head.statusCode, headerFields: head.fields, url: head.url, stream: body))
    }

    /// Sends the request and waits for the response head.
    private func execute(
        _ request: TransportRequest, deadline: ExchangeDeadline
    ) async throws -> HTTPClientResponse {
        let urlRequest = request.urlRequest
        guard let url = urlRequest.url else {
            throw TransportFailure(kind: .badURL, underlyingError: URLError(.badURL))
        }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        // The target's repeated field lines apart, as the engine can send them.
        let fields = request.headerFields
        try TraceContextCheck.check(fields, for: client)
        for field in fields {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if let trust = request.trust, let host = url.host {
            if url.scheme?.lowercased() == "https", !trust.pins(for: host).isEmpty {
                return try await PinnedExchange(client: client, connections: pinned).execute(
                    request, to: url, policy: trust, deadline: deadline.nio)
            }
            outgoing.tlsConfiguration = try TrustConfiguration.tls(for: trust, host: host)
        }
        outgoing.body = try Upload(request).body
        let response = try await client.execute(outgoing, deadline: deadline.nio)
        guard response.history.count <= 1 else { throw AsyncHTTPClientTransportError.clientFollowedRedirect }
        return response
    }
}
