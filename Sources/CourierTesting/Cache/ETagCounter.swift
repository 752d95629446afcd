import Courier
import Foundation

/// The conformance suite's ETag case as a server: it answers a counter with an `ETag` and no
/// freshness, and a `304 Not Modified` to a request whose `If-None-Match` matches it, counting
/// both kinds of answers.
/// ```swift
/// let counter = ETagCounter()
/// let server = try LoopbackServer { counter.answer($0) }
/// ```
@_spi(CacheTests) public final class ETagCounter: Sendable {
    private let counts = Locked((full: 0, notModified: 0))

    /// Creates a counter.
    public init() {}

    /// How many full answers the server gave.
    public var fullAnswers: Int { counts.withLock { $0.full } }
    /// How many 304s the server gave.
    public var notModified: Int { counts.withLock { $0.notModified } }

    /// The answer to `request`.
    /// - Parameter request: What reached the server.
    /// - Returns: A 304 when `If-None-Match` names the current tag, else the counter.
    public func answer(_ request: ServerRequest) -> ServerReply {
        let tag = "\"count-1\""
        if request.header("If-None-Match") == tag {
            counts.withLock { $0.notModified += 1 }
            return ServerReply(status: 304, headers: ["ETag": tag])
        }
        counts.withLock { $0.full += 1 }
        return ServerReply(headers: ["ETag": tag], body: Data("count 1".utf8))
    }

    /// What the six requests of the case saw.
    public struct CaseResult: Sendable {
        /// Each answer's status and body, as the caller got them.
        public let answers: [String]
        /// What the cache did for each.
        public let outcomes: [CacheOutcome?]
        /// Full answers the server gave.
        public let fullAnswers: Int
        /// 304s the server gave.
        public let notModified: Int
    }

    /// The case: six GETs through a provider with a new `HTTPCache` on `transport`, against a
    /// loopback counter. A cache that works gets one full answer and five 304s from the server,
    /// and gives its caller six `200 count 1`.
    /// - Parameter transport: The engine under test.
    /// - Returns: What the server and the caller saw.
    /// - Throws: A request's error, or the loopback server's.
    public static func runCase(on transport: any Transport) async throws -> CaseResult {
        let counter = ETagCounter()
        let server = try LoopbackServer { counter.answer($0) }
        defer { server.stop() }
        let provider = Provider<Target>(transport: transport, options: ProviderOptions(cache: HTTPCache()))
        var answers: [String] = []
        var outcomes: [CacheOutcome?] = []
        for _ in 0..<6 {
            let response = try await provider.request(Target(baseURL: server.baseURL))
            answers.append("\(response.statusCode) \(String(decoding: response.data, as: UTF8.self))")
            outcomes.append(response.cacheOutcome)
        }
        return CaseResult(
            answers: answers, outcomes: outcomes, fullAnswers: counter.fullAnswers, notModified: counter.notModified)
    }

    /// A GET of the counter.
    public struct Target: TargetType {
        /// The server.
        public let baseURL: URL
        /// `/counter`.
        public var path: String { "/counter" }
        /// GET.
        public var method: HTTPMethod { .get }
        /// No body.
        public var task: HTTPTask { .requestPlain }
        /// None.
        public var headers: [String: String]? { nil }

        /// A GET of the counter on `baseURL`.
        /// - Parameter baseURL: The server.
        public init(baseURL: URL) { self.baseURL = baseURL }
    }
}
