import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import Tracing

/// The same call as the Courier route, written by hand on AsyncHTTPClient: the benchmark's
/// baseline. It does what the Courier route's provider does, no more: the token header, a
/// single-flight sign-in and a refresh on 401, one retry of a 5xx, a one-second timeout, and,
/// when `observed`, one client span with its context injected, a timer and a counter, and a
/// debug log line.
public final class RawUpstream: Sendable {
    private let client: HTTPClient
    private let upstream: String
    private let logger: Logger
    private let tokens: TokenCache
    private let duration = Metrics.Timer(label: "raw.client.request.duration")
    private let requests = Counter(label: "raw.client.requests")
    private let observed: Bool

    /// Creates the baseline.
    /// - Parameters:
    ///   - upstream: Where the upstream API is.
    ///   - client: The `HTTPClient`.
    ///   - logger: The logger.
    ///   - observed: Whether it traces, measures and logs, as the Courier route's plugins do.
    public init(upstream: URL, client: HTTPClient, logger: Logger, observed: Bool = true) {
        self.observed = observed
        self.client = client
        self.upstream = upstream.absoluteString
        self.logger = logger
        self.tokens = TokenCache(client: client, upstream: upstream.absoluteString)
    }

    /// Order `id`.
    public func order(id: Int) async throws -> Order {
        guard observed else { return try await fetch(id: id, span: nil, tracer: nil) }
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
            requests.increment()
        }
        let tracer = InstrumentationSystem.tracer
        let order = try await tracer.withSpan("GET", ofKind: .client) { span in
            try await fetch(id: id, span: span, tracer: tracer)
        }
        logger.debug("raw request succeeded", metadata: ["order": "\(id)"])
        return order
    }

    private func fetch(id: Int, span: (any Span)?, tracer: (any Tracer)?) async throws -> Order {
        var refreshed = false
        var retried = false
        while true {
            var request = HTTPClientRequest(url: "\(upstream)/orders/\(id)")
            request.headers.add(name: "Accept", value: "application/json")
            let token = try await tokens.current()
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let span, let tracer { tracer.inject(span.context, into: &request.headers, using: HeadersInjector()) }
            let response = try await client.execute(request, timeout: .seconds(1))
            if response.status == .unauthorized, !refreshed {
                refreshed = true
                try await tokens.refresh(replacing: token)
                continue
            }
            if response.status.code >= 500, !retried {
                retried = true
                try await Task.sleep(nanoseconds: 500_000_000)
                continue
            }
            guard response.status == .ok else { throw HTTPError(.badGateway) }
            let body = try await response.body.collect(upTo: 1 << 20)
            return try JSONDecoder().decode(Order.self, from: Data(body.readableBytesView))
        }
    }
}

/// The baseline's token: obtained once for everyone waiting, and again on a refresh.
actor TokenCache {
    private let client: HTTPClient
    private let upstream: String
    private var token: String?
    private var pending: Task<String, any Error>?

    init(client: HTTPClient, upstream: String) {
        self.client = client
        self.upstream = upstream
    }

    func current() async throws -> String {
        if let token { return token }
        return try await obtain()
    }

    /// A new token, unless another request already replaced `rejected`.
    func refresh(replacing rejected: String) async throws {
        guard token == rejected || token == nil else { return }
        token = nil
        _ = try await obtain()
    }

    private func obtain() async throws -> String {
        if let pending { return try await pending.value }
        let task = Task { [client, upstream] in
            var request = HTTPClientRequest(url: "\(upstream)/token")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(
                ByteBuffer(string: "client_id=gateway&client_secret=s3cret&grant_type=client_credentials"))
            let response = try await client.execute(request, timeout: .seconds(1))
            let body = try await response.body.collect(upTo: 1 << 16)
            struct Issued: Decodable {
                let accessToken: String
                enum CodingKeys: String, CodingKey { case accessToken = "access_token" }
            }
            return try JSONDecoder().decode(Issued.self, from: Data(body.readableBytesView)).accessToken
        }
        pending = task
        defer { pending = nil }
        let value = try await task.value
        token = value
        return value
    }
}

/// Writes a trace context field into AsyncHTTPClient's headers.
struct HeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.replaceOrAdd(name: key, value: value)
    }
}
