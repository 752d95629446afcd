import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the requests of a ``TargetType`` through plugins, an interceptor and a transport.
///
/// ```swift
/// let provider = Provider<GitHub>(plugins: [MyLogger()], interceptor: MyAuth())
/// let user = try await provider.request(.user("octocat")).map(User.self)
/// provider.request(.zen) { result in print(result) }
/// ```
///
/// Every request, stubbed or not, takes the same path, in this order:
/// 1. `endpointClosure(target)` builds the ``Endpoint``; `requestClosure(endpoint)` builds the
///    `URLRequest` (if that fails, no attempt is made: go to 5).
/// 2. Per attempt: each plugin's ``PluginType/prepare(_:target:)``, then each plugin's
///    ``PluginType/willSend(_:target:)``, then the interceptor's ``RequestAdapter/adapt(_:context:)``,
///    then the transport (the stub transport when the target is stubbed), then validation
///    against the target's ``ValidationType``.
/// 3. If the attempt failed, the interceptor's ``RequestRetrier/retry(_:dueTo:context:)``
///    decides: retry now, retry after a delay, or finish with this or another error.
/// 4. Cancellation at any point stops at once with ``CourierError/cancelled``: no further attempt
///    and no retry decision.
/// 5. Once per request: each plugin's ``PluginType/didReceive(_:target:)``, then each plugin's
///    ``PluginType/process(_:target:)``, then the caller gets the result, exactly once.
///
/// The provider is `Sendable` and immutable; share one per API.
public final class Provider<Target: TargetType>: Sendable {
    /// Builds the ``Endpoint`` of a target.
    public let endpointClosure: @Sendable (Target) -> Endpoint
    /// Builds the `URLRequest` of an endpoint; may be asynchronous (signing) and may throw.
    public let requestClosure: @Sendable (Endpoint) async throws -> URLRequest
    /// Says whether and how a target is stubbed.
    public let stubClosure: @Sendable (Target) -> StubBehavior
    /// The queue the completion API calls back on, unless a call names another.
    ///
    /// The default is the main queue, as in Moya. On Linux the main queue runs only while the
    /// program services it (an async `main`, `dispatchMain()` or a run loop); a server whose main
    /// thread does something else should pass its own queue.
    public let callbackQueue: DispatchQueue
    /// Sends requests that are not stubbed.
    public let transport: any Transport
    /// The plugins, called in this order.
    public let plugins: [any PluginType]
    /// The plugins whose `prepare` and `process` are called: all but the ``ObservingPlugin``s.
    let transformingPlugins: [any PluginType]
    /// Adapts each attempt and decides retries, if any.
    public let interceptor: (any RequestInterceptor)?
    /// Whether the interceptor bounds its own waits (``RequestAdapter/boundsItsWaits``): then its
    /// `adapt` runs without the total timeout's limit around it.
    let interceptorBoundsItsWaits: Bool
    /// Whether a request identical to one in flight joins it instead of being sent again.
    ///
    /// Identical means the same method, URL, headers (names compared without case) and body
    /// (bytes, or the file uploaded). Only idempotent methods join (`GET`, `HEAD`, `OPTIONS`,
    /// `TRACE`, `PUT`, `DELETE`): two `POST`s or `PATCH`es are two actions, and each is sent.
    /// Downloads and multipart uploads never join: their destinations and forms cannot be
    /// compared. Each caller receives the shared exchange's progress from when it joins until it
    /// completes, and nothing after.
    public let trackInflights: Bool
    /// The bounds of every streamed response, unless a call names others (see ``StreamingLimits``).
    public var streamingLimits: StreamingLimits { options.streamingLimits }
    /// What the provider does above its engine (see ``ProviderOptions``).
    public let options: ProviderOptions
    /// The stages between an attempt and the engine, built once (see ``StageChain``).
    let chain: StageChain
    /// The request options the provider honours: the engine's, and a request's cache policy
    /// when the provider has a cache.
    let capabilities: TransportCapabilities
    /// The cookie jar that sends and stores this provider's cookies above the engine, or `nil`
    /// for the engine's own cookie handling (URLSession's `HTTPCookieStorage`; none on
    /// AsyncHTTPClient).
    public var cookieJar: CookieJar? { options.cookies }
    /// The private HTTP cache that answers in the transport's place when it can, or `nil`.
    public var cache: HTTPCache? { options.cache }
    /// The resilience policy of the requests whose target declares none
    /// (``TargetType/resilience``), or `nil`.
    public var resilience: ResiliencePolicy? { options.resilience }
    /// The clock that retry delays, the total timeout, `Retry-After` dates and the resilience
    /// policies read: the system's unless a test gives its own.
    public var clock: any ProviderClock { options.clock }
    /// The state of the resilience policies, per scope.
    let resilienceStates: ResilienceRegistry
    /// Whether `clock` is another than the system's, read once: a transport then needs the
    /// attempt's limits to measure its timeout on it.
    let hasOwnClock: Bool

    /// The provider's trust policy (``ProviderOptions/trust``), boxed once for its requests.
    let trustBox: TrustBox?

    let inflights = InflightRegistry()
    /// The one timer behind every time limit of this provider's requests on the system's clock
    /// (see ``DeadlineTimers``); its timer source is made on the first limit.
    let timers = DeadlineTimers()
    private let requestCount = Locked<UInt64>(0)

    /// A new identifier for a request of this provider.
    func nextRequestID() -> RequestID {
        let sequence = requestCount.withLock { count in
            count += 1
            return count
        }
        return RequestID(scope: ObjectIdentifier(self), sequence: sequence)
    }

    /// Creates a provider; every setting has a default.
    /// - Parameters:
    ///   - endpointClosure: Builds the endpoint of a target; by default (`nil`)
    ///     ``defaultEndpointMapping(for:)``, with the URLs it joined kept per provider (bounded).
    ///   - requestClosure: Builds the request of an endpoint; ``defaultRequestMapping(for:)`` by default.
    ///   - stubClosure: Whether a target is stubbed; ``neverStub(_:)`` by default.
    ///   - callbackQueue: Where completion handlers run; the main queue by default.
    ///   - transport: Sends the requests; ``URLSessionTransport/shared`` by default, one session
    ///     for every provider that does not name its own.
    ///   - plugins: The plugins, in the order they are called.
    ///   - interceptor: Adapts attempts and decides retries; none by default.
    ///   - trackInflights: Whether identical concurrent requests share one exchange; off by default.
    ///   - options: Redirects, the cookie jar, the cache, the resilience policy, the streaming
    ///     limits and the clock (see ``ProviderOptions``); ``ProviderOptions/standard`` by default.
    public init(
        endpointClosure: (@Sendable (Target) -> Endpoint)? = nil,
        requestClosure: @escaping @Sendable (Endpoint) async throws -> URLRequest = Provider.defaultRequestMapping,
        stubClosure: @escaping @Sendable (Target) -> StubBehavior = Provider.neverStub,
        callbackQueue: DispatchQueue = .main,
        transport: any Transport = URLSessionTransport.shared,
        plugins: [any PluginType] = [],
        interceptor: (any RequestInterceptor)? = nil,
        trackInflights: Bool = false,
        options: ProviderOptions = .standard
    ) {
        // The default mapping, with the URLs it joined kept: a target asked for again is not
        // parsed again, also when a closure of the caller's starts from the default mapping.
        let known = JoinedURLs()
        if let endpointClosure {
            self.endpointClosure = { target in JoinedURLs.$current.withValue(known) { endpointClosure(target) } }
        } else {
            self.endpointClosure = { target in Provider.defaultEndpoint(for: target, known: known) }
        }
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.callbackQueue = callbackQueue
        self.transport = transport
        self.plugins = plugins
        self.transformingPlugins = plugins.filter { !($0 is any ObservingPlugin) }
        self.interceptor = interceptor
        self.interceptorBoundsItsWaits = interceptor?.boundsItsWaits ?? false
        self.trackInflights = trackInflights
        self.options = options
        resilienceStates = ResilienceRegistry(providerPolicy: options.resilience)
        hasOwnClock = !(options.clock is SystemClock)
        chain = StageChain(
            StageChain.Parts(
                cache: options.cache, cookies: options.cookies, clock: options.clock, redirects: options.redirects),
            engine: transport)
        capabilities = transport.capabilities.union(options.cache == nil ? [] : .cachePolicy)
        trustBox = options.trust.map(TrustBox.init)
    }

    /// Whether a request with this base request is in flight (with ``trackInflights``).
    ///
    /// Requests are the same when their method, URL, headers and body are. This finds requests
    /// whose body is the request's own; ``isInFlight(_:)-(Target)`` finds file uploads too.
    /// - Parameter request: The base request, as ``Endpoint/urlRequest()`` builds it.
    /// - Returns: `true` while a shared exchange for it runs.
    public func isInFlight(_ request: URLRequest) -> Bool {
        inflights.isInFlight(RequestKey(request))
    }

    /// Whether a request of `target` is in flight (with ``trackInflights``): `false` for a target
    /// whose requests never join others (see ``trackInflights``).
    /// - Parameter target: The target.
    /// - Returns: `true` while a shared exchange for it runs.
    public func isInFlight(_ target: Target) -> Bool {
        joinKey(target).map(inflights.isInFlight) ?? false
    }

    /// How many callers share the in-flight exchange of this base request (with ``trackInflights``).
    /// - Parameter request: The base request, as ``Endpoint/urlRequest()`` builds it.
    /// - Returns: The number of callers waiting for it; 0 when none is in flight.
    public func inflightCallers(for request: URLRequest) -> Int {
        inflights.callers(for: RequestKey(request))
    }

    /// How many callers share the in-flight exchange of `target` (with ``trackInflights``).
    /// - Parameter target: The target.
    /// - Returns: The number of callers waiting for it; 0 when none is in flight.
    public func inflightCallers(for target: Target) -> Int {
        joinKey(target).map(inflights.callers) ?? 0
    }

    private func joinKey(_ target: Target) -> RequestKey? {
        let endpoint = endpointClosure(target)
        return (try? endpoint.urlRequest()).flatMap { RequestKey.joining($0, task: endpoint.task) }
    }

    /// The endpoint of `target`, as `endpointClosure` builds it.
    /// - Parameter target: The target.
    /// - Returns: Its endpoint.
    public func endpoint(_ target: Target) -> Endpoint {
        endpointClosure(target)
    }
}
