import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// The demo's upstream order service: issues tokens for client credentials (`POST /token`),
/// answers `GET /orders/{id}` for the current token only (401 otherwise), and counts what it saw,
/// trace context headers included (`GET /_stats`). `POST /_rotate` invalidates the current token,
/// as an upstream that revokes tokens does.
public final class FakeUpstream: Sendable {
    /// What the upstream saw.
    public struct Stats: Codable, Sendable, Equatable {
        /// Order requests received.
        public var orders = 0
        /// Tokens issued.
        public var tokens = 0
        /// Order requests answered 401.
        public var rejected = 0
        /// Order requests that carried one trace context (`traceparent`, or an in-memory tracer's
        /// fields), each field once.
        public var traced = 0
        /// Order requests that carried a trace context field more than once (must stay 0).
        public var duplicateTraceContexts = 0
    }

    private struct State {
        var stats = Stats()
        var current: String?
    }

    private let state = Mutex(State())
    /// How long an issued token lives, in seconds.
    let tokenLifetime: Int
    /// The orders' `Cache-Control` field, or `nil` for none.
    let orderCacheControl: String?

    /// Creates the upstream.
    /// - Parameters:
    ///   - tokenLifetime: How long an issued token lives, in seconds; 60 by default.
    ///   - orderCacheControl: The orders' `Cache-Control` field; none by default.
    public init(tokenLifetime: Int = 60, orderCacheControl: String? = nil) {
        self.tokenLifetime = tokenLifetime
        self.orderCacheControl = orderCacheControl
    }

    /// What the upstream saw so far.
    public var stats: Stats { state.withLock { $0.stats } }

    /// Its routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("token") { request, _ in try await self.issue(request) }
        router.get("orders/:id") { request, context in try self.order(request, context) }
        router.get("_stats") { _, _ in try Self.json(self.stats) }
        router.post("_rotate") { _, _ -> HTTPResponse.Status in
            self.state.withLock { $0.current = nil }
            return .noContent
        }
        return router
    }

    private func issue(_ request: Request) async throws -> Response {
        let form = String(buffer: try await request.body.collect(upTo: 4_096))
        guard form.contains("client_id=gateway"), form.contains("client_secret=") else {
            return Response(status: .unauthorized)
        }
        let token = state.withLock { state in
            state.stats.tokens += 1
            let token = "token-\(state.stats.tokens)"
            state.current = token
            return token
        }
        return try Self.json(["access_token": token, "expires_in": "\(tokenLifetime)"], raw: true)
    }

    private func order(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let id = try context.parameters.require("id", as: Int.self)
        let fields = Self.traceFields.map { request.headers[values: $0].count }
        let traceContexts = fields.max() ?? 0
        let authorization = request.headers[.authorization]
        let accepted = state.withLock { state -> Bool in
            state.stats.orders += 1
            if traceContexts == 1 { state.stats.traced += 1 }
            if traceContexts > 1 { state.stats.duplicateTraceContexts += 1 }
            let valid = state.current.map { authorization == "Bearer \($0)" } ?? false
            if !valid { state.stats.rejected += 1 }
            return valid
        }
        guard accepted else { return Response(status: .unauthorized) }
        var response = try Self.json(Order(id: id, total: id * 100))
        if let orderCacheControl { response.headers[.cacheControl] = orderCacheControl }
        return response
    }

    /// The trace context fields the demo's tracers write: W3C's, and swift-distributed-tracing's
    /// in-memory tracer's.
    static let traceFields = ["traceparent", "in-memory-trace-id", "in-memory-span-id"].map { HTTPField.Name($0)! }

    static func json(_ value: some Encodable) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A JSON object of strings, with `expires_in` as a number.
    static func json(_ fields: [String: String], raw: Bool) throws -> Response {
        let body = fields.sorted { $0.key < $1.key }.map { key, value in
            key == "expires_in" ? "\"\(key)\":\(value)" : "\"\(key)\":\"\(value)\""
        }.joined(separator: ",")
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: "{\(body)}")))
    }
}
