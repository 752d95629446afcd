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
/// when `observed`, what the Courier route's plugins write (``RawObservation``: a request span, a
/// client span per attempt with its context injected, OpenTelemetry's metrics and Courier's) and a
/// debug log line.
public final class RawUpstream: Sendable {
    private let client: HTTPClient
    private let upstream: String
    private let logger: Logger
    private let tokens: TokenCache
    private let observation: RawObservation?

    /// Creates the baseline.
    /// - Parameters:
    ///   - upstream: Where the upstream API is.
    ///   - client: The `HTTPClient`.
    ///   - logger: The logger.
    ///   - observed: Whether it traces, measures and logs, as the Courier route's plugins do.
    public init(upstream: URL, client: HTTPClient, logger: Logger, observed: Bool = true) {
        self.observation = observed ? RawObservation(upstream: upstream) : nil
        self.client = client
        self.upstream = upstream.absoluteString
        self.logger = logger
        self.tokens = TokenCache(client: client, upstream: upstream.absoluteString)
    }

    /// Order `id`.
    public func order(id: Int) async throws -> Order {
        guard let observation else { return try await fetch(id: id, observed: nil) }
        let started = DispatchTime.now().uptimeNanoseconds
        let tracer = InstrumentationSystem.tracer
        let span = observation.startRequest(tracer)
        do {
            let order = try await fetch(id: id, observed: (observation, tracer, span))
            observation.endRequest(span, started: started)
            logger.debug("raw request succeeded", metadata: ["order": "\(id)"])
            return order
        } catch {
            span.recordError(error)
            span.end()
            throw error
        }
    }

    private func fetch(id: Int, observed: (RawObservation, any Tracer, any Span)?) async throws -> Order {
        var refreshed = false
        var retried = false
        var resend = 0
        while true {
            let url = "\(upstream)/orders/\(id)"
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "application/json")
            let token = try await tokens.current()
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let started = DispatchTime.now().uptimeNanoseconds
            let attempt = observed.map { $0.0.startAttempt($0.1, parent: $0.2, url: url, resend: resend) }
            if let attempt, let tracer = observed?.1 {
                tracer.inject(attempt.context, into: &request.headers, using: HeadersInjector())
            }
            resend += 1
            let response = try await client.execute(request, timeout: .seconds(1))
            if response.status == .unauthorized, !refreshed {
                if let attempt { observed?.0.endAttempt(attempt, response: response, started: started, bodySize: 0) }
                refreshed = true
                try await tokens.refresh(replacing: token)
                continue
            }
            if response.status.code >= 500, !retried {
                if let attempt { observed?.0.endAttempt(attempt, response: response, started: started, bodySize: 0) }
                retried = true
                try await Task.sleep(nanoseconds: 500_000_000)
                continue
            }
            guard response.status == .ok else { throw HTTPError(.badGateway) }
            let body = try await response.body.collect(upTo: 1 << 20)
            if let attempt {
                observed?.0.endAttempt(attempt, response: response, started: started, bodySize: body.readableBytes)
            }
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
