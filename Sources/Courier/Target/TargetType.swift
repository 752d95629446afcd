import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Describes the endpoints of an API: usually an enum with one case per endpoint.
///
/// ```swift
/// enum GitHub: TargetType {
///     case user(String), zen
///     var baseURL: URL { URL(string: "https://api.github.com")! }
///     var path: String {
///         switch self {
///         case .user(let name): "/users/\(name)"
///         case .zen: "/zen"
///         }
///     }
///     var method: HTTPMethod { .get }
///     var task: HTTPTask { .requestPlain }
///     var headers: [String: String]? { nil }
///     var validationType: ValidationType { .successCodes }
/// }
/// ```
/// The URL is `baseURL` with `path` appended as path components; put query parameters in
/// ``task`` (a `?` in `path` is escaped, as in Moya). ``validationType``, ``sampleData``,
/// ``sampleStream``, ``timeoutInterval``, ``totalTimeoutInterval``, ``cachePolicy``,
/// ``idempotency``, ``handlesCookies`` and ``resilience`` have defaults.
public protocol TargetType: Sendable {
    /// The API's base URL, for example `https://api.example.com/v1`.
    var baseURL: URL { get }
    /// The path of the endpoint, appended to ``baseURL``. An empty path means ``baseURL`` itself.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// The body and parameters of the request.
    var task: HTTPTask { get }
    /// Headers sent with the request, or `nil` for none.
    var headers: [String: String]? { get }
    /// The status codes accepted as success. Defaults to ``ValidationType/none``.
    var validationType: ValidationType { get }
    /// The body returned for this target when it is stubbed. Defaults to empty data.
    var sampleData: Data { get }
    /// The streamed body returned for this target when it is stubbed, chunk by chunk, in place of
    /// ``sampleData``; `nil` (the default) for ``sampleData``.
    var sampleStream: SampleStream? { get }
    /// The longest one attempt may take, from sending to the last byte of the answer, before it
    /// fails with ``TransportFailure/Kind/timedOut``; `nil` for the transport's own idle timeout
    /// (60 s without a byte, by default). Courier enforces it itself, to the millisecond, on every
    /// platform. Defaults to `nil`.
    ///
    /// It bounds each attempt, not the call: an interceptor that retries a timeout makes the
    /// caller wait longer. With ``RetryPolicy``'s defaults (3 attempts, 0.5 s then 1 s between
    /// them) a call can take up to 3 × `timeoutInterval` + 1.5 s; set ``totalTimeoutInterval`` to
    /// bound the whole call. For a streamed request (`Provider.stream`, `Provider.events`) and for
    /// the pieces of a resumable download (`Provider.download(_:resumingInto:)`) it bounds each
    /// wait instead: for the response head, then for every next chunk of the body, never the whole
    /// body, so a long answer that keeps arriving is never cut.
    var timeoutInterval: TimeInterval? { get }
    /// The longest the whole call may take, all attempts, retry delays and refreshes included;
    /// `nil` for no limit. An attempt gets at most the time that is left, and a retry that would
    /// start after it is not made. A streamed request's body counts too. Defaults to `nil`.
    ///
    /// ```swift
    /// var timeoutInterval: TimeInterval? { 1 }          // each attempt
    /// var totalTimeoutInterval: TimeInterval? { 2.5 }   // the call, retries included
    /// ```
    var totalTimeoutInterval: TimeInterval? { get }
    /// The cache policy of the request, or `nil` for the transport's default. Defaults to `nil`.
    var cachePolicy: URLRequest.CachePolicy? { get }
    /// The header fields in order, a name repeated where the request must carry several field
    /// lines of it; `nil` (the default) for ``headers``. A transport that cannot send repeated
    /// field lines (URLSession) refuses such a request rather than join values that must stay
    /// apart; join them yourself in ``headers`` where a list-valued field allows it.
    /// ```swift
    /// var headerFields: HeaderFields? {
    ///     HeaderFields([.init(name: "X-Tag", value: "red"), .init(name: "X-Tag", value: "blue")])
    /// }
    /// ```
    var headerFields: HeaderFields? { get }
    /// Whether the request may be sent twice: ``Idempotency/byMethod`` by default (a `POST` is
    /// never resent by a transport nor retried by ``RetryPolicy``); ``Idempotency/idempotencyKey(header:)``
    /// makes one safe to retry with an `Idempotency-Key`.
    var idempotency: Idempotency { get }
    /// Whether the request sends and stores cookies: `true` by default. `false` keeps the
    /// provider's ``CookieJar`` and the engine's own cookies out of it (as
    /// `httpShouldHandleCookies = false` on the request does).
    var handlesCookies: Bool { get }
    /// The ``ResiliencePolicy`` of the target's requests (budget, breaker, limits, hedging), or
    /// `nil`, the default, for the provider's (``Provider/resilience``).
    var resilience: ResiliencePolicy? { get }
    /// The ``TrustPolicy`` of the target's requests (pins, roots, a client certificate), or `nil`,
    /// the default, for the provider's (``ProviderOptions/trust``).
    var trustPolicy: TrustPolicy? { get }
    /// The peer a stubbed WebSocket of this target opens on (``Provider/webSocket(_:options:)``
    /// with a `stubClosure` that stubs it), as ``sampleData`` is a stubbed request's answer; an
    /// echoing peer by default.
    var sampleWebSocket: WebSocketScript { get }
}

extension TargetType {
    /// Every status code is accepted.
    public var validationType: ValidationType { .none }
    /// Empty data.
    public var sampleData: Data { Data() }
    /// None: the stub answers with ``sampleData``.
    public var sampleStream: SampleStream? { nil }
    /// The transport's default timeout.
    public var timeoutInterval: TimeInterval? { nil }
    /// No limit.
    public var totalTimeoutInterval: TimeInterval? { nil }
    /// ``Idempotency/byMethod``.
    public var idempotency: Idempotency { .byMethod }
    /// `nil`: ``headers`` holds the fields.
    public var headerFields: HeaderFields? { nil }
    /// The transport's default cache policy.
    public var cachePolicy: URLRequest.CachePolicy? { nil }
    /// `true`: cookies are sent and stored.
    public var handlesCookies: Bool { true }
    /// `nil`: the provider's policy applies.
    public var resilience: ResiliencePolicy? { nil }
    /// `nil`: the provider's trust policy applies.
    public var trustPolicy: TrustPolicy? { nil }
    /// A peer that accepts the handshake and echoes every message.
    public var sampleWebSocket: WebSocketScript { .echo }

    /// The full URL of the target: ``baseURL`` with ``path`` appended.
    public var url: URL { url(known: nil) }

    /// ``url``, found among the URLs joined before when `known` has it.
    func url(known: JoinedURLs?) -> URL {
        let path = path
        return path.isEmpty ? baseURL : baseURL.appendingPathComponentQuickly(path, known: known)
    }
}
