import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One hop on AsyncHTTPClient: the request as it is, no redirect followed
/// (``AsyncHTTPClientTransport`` follows them above it, with Courier's rules).
struct AsyncHTTPClientEngine: Transport {
    let client: HTTPClient

    var capabilities: TransportCapabilities { [.timeouts, .repeatedHeaderFields] }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let deadline = ExchangeDeadline(request.timeout, on: client.eventLoopGroup.any())
        defer { deadline.end() }
        do {
            return try await deadline.run {
                let response = try await execute(request, deadline: deadline)
                return try await ResponseHead(response, request: request).collect(response.body, for: request)
            }
        } catch {
            throw AsyncHTTPClientFailure.map(error)
        }
    }

    func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse {
        let deadline = ExchangeDeadline(request.timeout, on: client.eventLoopGroup.any())
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
        return StreamedTransportResponse(
            statusCode: head.statusCode, headerFields: head.fields, url: head.url, body: body)
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
        outgoing.body = try Upload(request).body
        let response = try await client.execute(outgoing, deadline: deadline.nio)
        guard response.history.count <= 1 else { throw AsyncHTTPClientTransportError.clientFollowedRedirect }
        return response
    }
}
