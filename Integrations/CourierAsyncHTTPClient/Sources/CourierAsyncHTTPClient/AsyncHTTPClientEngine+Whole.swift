import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The route of most requests: no body, the answer read whole into memory, on AsyncHTTPClient's
/// delegate API (``WholeResponseDelegate``). The caller is resumed once, when the
/// answer is complete, and a time limit cancels AsyncHTTPClient's own task from the transport's
/// timer: no Swift task of Courier's per request and no trip through the pool per body part.
extension AsyncHTTPClientEngine {
    /// Whether `request` takes the delegate route: the answer read into memory, no progress
    /// reported (the other route reports it as parts arrive), no body, and no pinned host (pinned
    /// connections are Courier's own, see ``PinnedConnections``).
    ///
    /// A request with a body takes the async API: the delegate API streams even a body in memory,
    /// ending it one event-loop turn after its bytes, and when the answer (a 307, a 413) arrives
    /// in that turn and the connection then closes, AsyncHTTPClient 1.37's pool traps ("A
    /// connection that we don't know was released": 1 in ~1,800 POSTs in `EarlyAnswerTests`).
    /// The async API writes such a body and its end at once.
    static func readsWhole(_ request: TransportRequest) -> Bool {
        guard request.delivery == .memory, request.progress == nil, case .inline = request.body else { return false }
        guard request.urlRequest.httpBody?.isEmpty ?? true else { return false }
        guard let trust = request.trust else { return true }
        let url = request.urlRequest.url
        return url?.scheme?.lowercased() != "https" || trust.pins(for: url?.host ?? "").isEmpty
    }

    /// The request and its whole answer, sent once more on a new connection when it is idempotent
    /// and the connection closed before any answer, as ``send(_:)`` does.
    func sendWhole(_ request: TransportRequest) async throws -> TransportResponse {
        let outgoing = try delegateRequest(request)
        let deadline = ExchangeDeadline(request.timeout, timers: timers)
        defer { deadline.end() }
        var resends = 0
        while true {
            let delegate = WholeResponseDelegate()
            let answer: WholeResponseDelegate.Answer
            do {
                let task = client.execute(
                    request: outgoing, delegate: delegate, eventLoop: .indifferent, deadline: nil, logger: nil)
                let cancel: @Sendable () -> Void = { task.cancel() }
                answer = try await deadline.guarding(cancel: cancel) {
                    try await withTaskCancellationHandler {
                        try await task.futureResult.get()
                    } onCancel: {
                        cancel()
                    }
                }
            } catch {
                let failure = AsyncHTTPClientFailure.map(error, bodyCutShort: delegate.answered)
                guard !delegate.answered, resends < Self.maximumResends, Self.mayResend(request, after: failure) else {
                    throw failure
                }
                resends += 1
                continue
            }
            let head = ResponseHead(answer.head, request: request)
            let whole = TransportResponse(
                statusCode: head.statusCode, headerFields: head.fields, url: head.url, data: answer.body)
            var response = head.recorded(whole)
            response.resends = resends
            return response
        }
    }

    /// The request as the delegate API takes it: the same method, fields and trust as the async
    /// API's (``execute(_:deadline:)``); no body (see ``readsWhole(_:)``).
    private func delegateRequest(_ request: TransportRequest) throws -> HTTPClient.Request {
        let urlRequest = request.urlRequest
        guard let url = urlRequest.url else {
            throw TransportFailure(kind: .badURL, underlyingError: URLError(.badURL))
        }
        let fields = request.headerFields
        try TraceContextCheck.check(fields, for: client)
        var headers = HTTPHeaders()
        for field in fields {
            headers.add(name: field.name, value: field.value)
        }
        var outgoing: HTTPClient.Request
        do {
            // From the parsed URL: the string form would be parsed again.
            outgoing = try HTTPClient.Request(
                url: url, method: HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"), headers: headers)
        } catch {
            throw AsyncHTTPClientFailure.map(error)
        }
        if let trust = request.trust, let host = url.host {
            outgoing.tlsConfiguration = try TrustConfiguration.tls(for: trust, host: host)
        }
        return outgoing
    }
}
