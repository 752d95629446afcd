// Generated from the symbol documentation comments in Sources/ by DocumentationSamplesTests:
// do not edit. Update: COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples
// swift-format-ignore-file

import Courier
@_spi(CacheTests) import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// AccessTokenPlugin.swift#1
extension MyAPI: AccessTokenAuthorizable {
    var authorizationType: AuthorizationType? {
        switch self {
        case .login: nil
        default: .bearer
        }
    }
}

// AccessTokenPlugin.swift#2
@Sendable func accessTokenPluginExample2() async throws {
    let provider = Provider<MyAPI>(plugins: [AccessTokenPlugin { _ in try await tokens.accessToken() }])
    _ = provider
}

// AuthenticationError.swift#1
@Sendable func authenticationErrorExample1() async throws {
    let provider = Provider<GitHub>()
    do {
        _ = try await provider.request(.zen)
    } catch {
        if (error.underlyingError as? AuthenticationError)?.code == .refreshFailed {
            print("Signed out")
        }
    }
    _ = provider
}

// AuthenticationInterceptor.swift#1
@Sendable func authenticationInterceptorExample1() async throws {
    let auth = AuthenticationInterceptor(authenticator: OAuthAuthenticator(api: authProvider), credential: stored)
    let provider = Provider<API>(interceptor: Interceptor(interceptors: [auth, .retryPolicy]))
    _ = auth
    _ = provider
}

// Authenticator.swift#1
@Sendable func authenticatorExample1() async throws {
    struct Tokens: AuthenticationCredential, Codable {
        let access: String, refresh: String, expiresAt: Date
        var expiration: Date? { expiresAt }
    }
}

// Authenticator.swift#2
@Sendable func authenticatorExample2() async throws {
    struct OAuthAuthenticator: Authenticator {
        func apply(_ credential: OAuthCredential, to request: URLRequest) -> URLRequest {
            var request = request
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
            return request
        }
        func refresh(_ credential: OAuthCredential, context: RefreshContext) async throws -> OAuthCredential {
            try await context.send(API.refresh(credential.refreshToken)).map(OAuthCredential.self)
        }
    }
}

// Authenticator.swift#3
extension OAuthAuthenticator {
func signIn(context: RefreshContext) async throws -> OAuthCredential? {
    try await context.send(MyAPI.login).map(OAuthCredential.self)  // client credentials, say
}
}

// CredentialRefresh.swift#1
@Sendable func credentialRefreshExample1() async throws {
    func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {
        print("\(refresh.kind) \(refresh.error == nil ? "succeeded" : "failed") in \(refresh.duration) s")
    }
}

// CredentialRequirement.swift#1
@Sendable func credentialRequirementExample1() async throws {
    func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement {
        switch target as? GitHub {
        case .zen?, .user?: .optional   // public data: signed when signed in
        case nil: .none                 // another API's request
        }
    }
}

// CredentialsPlugin.swift#1
@Sendable func credentialsPluginExample1() async throws {
    let provider = Provider<MyAPI>(plugins: [CredentialsPlugin { _ in URLCredential(user: "ann", password: "s3cret", persistence: .none) }])
    _ = provider
}

// RefreshContext.swift#1
@Sendable func refreshContextExample1() async throws {
    func refresh(_ credential: Token, context: RefreshContext) async throws -> Token {
        try await context.send(API.refresh(credential.refreshToken)).map(Token.self)
    }
}

// DiskCacheStorage.swift#1
@Sendable func diskCacheStorageExample1() async throws {
    let folder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        .appendingPathComponent("api-cache")
    let cache = HTTPCache(storage: try DiskCacheStorage(directory: folder, maximumBytes: 50_000_000))
    _ = folder
    _ = cache
}

// HTTPCache.swift#1
@Sendable func hTTPCacheExample1() async throws {
    let provider = Provider<MyAPI>(options: ProviderOptions(cache: HTTPCache()))
    _ = provider
}

// MoyaCompatibility.swift#1
@Sendable func moyaCompatibilityExample1() async throws {
    let provider = Provider<GitHub>(requestClosure: { endpoint, done in
        var request = try? endpoint.urlRequest()
        request?.setValue(signature(), forHTTPHeaderField: "X-Signature")
        done(request.map { .success($0) } ?? .failure(.requestMapping(endpoint.url)))
    })
    _ = provider
}

// CookieJar.swift#1
@Sendable func cookieJarExample1() async throws {
    let provider = Provider<MyAPI>(options: ProviderOptions(cookies: CookieJar()))
    _ = provider
}

// ParameterEncoding.swift#1
@Sendable func parameterEncodingExample1() async throws {
    struct PlistEncoding: ParameterEncoding {
        func encode(_ request: URLRequest, with parameters: Parameters?) throws -> URLRequest {
            var request = request
            request.httpBody = try PropertyListSerialization.data(fromPropertyList: parameters ?? [:], format: .xml, options: 0)
            return request
        }
    }
}

// URLEncoding.swift#1
@Sendable func uRLEncodingExample1() async throws {
    let task: HTTPTask =
    .requestParameters(parameters: ["page": 2, "tags": ["a", "b"]], encoding: URLEncoding.queryString)
    // ?page=2&tags%5B%5D=a&tags%5B%5D=b
    _ = task
}

// Endpoint+Equality.swift#1
@Sendable func endpointEqualityExample1() async throws {
    let zen = Provider<GitHub>.defaultEndpointMapping(for: .zen)
    let seen: Set<Endpoint> = [zen, zen.replacing(sampleResponseClosure: { .networkResponse(500, Data()) })]
    print(seen.count)   // 1: the sample response is not compared
    _ = zen
    _ = seen
}

// Endpoint+URL.swift#1
@Sendable func endpointURLExample1() async throws {
    let staging = Provider<GitHub>(endpointClosure: { target in
        Provider.defaultEndpointMapping(for: target).replacing(origin: URL(string: "https://staging.example.com")!)
    })
    _ = staging
}

// Endpoint.swift#1
@Sendable func endpointExample1() async throws {
    let provider = Provider<GitHub>(endpointClosure: { target in
        Provider.defaultEndpointMapping(for: target).adding(newHTTPHeaderFields: ["X-App": "1"])
    })
    _ = provider
}

// CourierError.swift#1
@Sendable func courierErrorExample1() async throws {
    do {
        let user = try await provider.request(.user("octocat")).map(User.self)
        print(user.login)
    } catch .statusCode(let response) {
        print("HTTP \(response.statusCode)")
    } catch {
        print(error.stage, error.localizedDescription)
    }
}

// Adapter.swift#1
@Sendable func adapterExample1() async throws {
    let provider = Provider<API>(interceptor: Adapter { request, _ in
        var request = request
        request.setValue("secret", forHTTPHeaderField: "X-API-Key")
        return request
    })
    _ = provider
}

// Interceptor.swift#1
@Sendable func interceptorExample1() async throws {
    let apiKey = Adapter { request, _ in request }
    let retryUnavailable = Retrier { _, _, _ in .doNotRetry }
    let auth = MyAuth()
    let interceptor = Interceptor(adapters: [apiKey], retriers: [retryUnavailable], interceptors: [auth])
    _ = interceptor
}

// RequestAdapter.swift#1
@Sendable func requestAdapterExample1() async throws {
    struct BearerAdapter: RequestAdapter {
        let tokens: TokenStore
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            request.setValue("Bearer \(try await tokens.current())", forHTTPHeaderField: "Authorization")
            return request
        }
    }
}

// RequestContext.swift#1
@Sendable func requestContextExample1() async throws {
    func decide(_ context: RequestContext) -> RetryResult {
    context.markRetry(.reauthentication)
    return .retry
    }
}

// RequestContext.swift#2
@Sendable func requestContextExample2() async throws {
    struct TokenAdapter: RequestAdapter {
        let fetchToken: @Sendable () async throws -> String   // may wait for a server
        var boundsItsWaits: Bool { true }
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            let token = try await context.withinTotalTimeout(fetchToken)
            var signed = request
            signed.setHeaderField("Bearer \(token)", named: "Authorization")
            return signed
        }
    }
}

// RequestRetrier.swift#1
@Sendable func requestRetrierExample1() async throws {
    struct RetryUnavailable: RequestRetrier {
        func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async -> RetryResult {
            context.response?.statusCode == 503 && context.attempt < 3 ? .retryWithDelay(1) : .doNotRetry
        }
    }
}

// Retrier.swift#1
@Sendable func retrierExample1() async throws {
    let provider = Provider<API>(interceptor: Retrier { _, error, context in
        context.attempt < 3 && error.stage == .transport ? .retryWithDelay(0.5) : .doNotRetry
    })
    _ = provider
}

// RetryPolicy.swift#1
@Sendable func retryPolicyExample1() async throws {
    let provider = Provider<API>(interceptor: .retryPolicy)
    let patient = Provider<API>(interceptor: .retryPolicy(retryLimit: 5, maximumRetryAfter: 120))
    _ = provider
    _ = patient
}

// NetworkActivityPlugin.swift#1
@Sendable func networkActivityPluginExample1() async throws {
    let activity = NetworkActivityPlugin { change, _ in
        Task { @MainActor in indicator.update(change) }
    }
    _ = activity
}

// NetworkLoggerPlugin.swift#1
@Sendable func networkLoggerPluginExample1() async throws {
    _ =
    NetworkLoggerPlugin(configuration: .init(output: { _, entries in entries.forEach { logger.info("\($0)") } }))
}

// NetworkMetricsPlugin.swift#1
@Sendable func networkMetricsPluginExample1() async throws {
    let metrics = NetworkMetricsPlugin { metrics, result, target in
        histogram.record(metrics.duration, path: target.path)
        for attempt in metrics.attempts where attempt.failure != nil { failures.increment() }
    }
    _ = metrics
}

// Outbox.swift#1
@Sendable func outboxExample1() async throws {
    let provider = Provider<Posts>()
    let supportFolder = FileManager.default.temporaryDirectory
    func markSent(_ id: UUID) {}
    func showFailure(_ outcome: OutboxOutcome<Posts>) {}
    let outbox = try provider.outbox(named: "posts", in: supportFolder)
    let entry = try await outbox.enqueue(.createPost(text: "Hello from the tunnel"))

    for await outcome in outbox.outcomes {
        if outcome.isDelivered { markSent(outcome.id) } else { showFailure(outcome) }
        try await outbox.acknowledge(outcome)
    }
    _ = outbox
    _ = entry
}

// OutboxOptions.swift#1
@Sendable func outboxOptionsExample1() async throws {
    let provider = Provider<Posts>()
    let folder = FileManager.default.temporaryDirectory
    var options = OutboxOptions()
    options.lifetime = 3 * 86_400      // a post not sent within three days is dropped, and reported
    options.maximumAttempts = 100
    let outbox = try provider.outbox(named: "posts", in: folder, options: options)
    _ = outbox
}

// ObservingPlugin.swift#1
@Sendable func observingPluginExample1() async throws {
    struct RequestCounter: ObservingPlugin {
        let count: @Sendable (String) -> Void
        func willSend(_ request: PreparedRequest, target: any TargetType) {
            count(request.request.httpMethod ?? "GET")
        }
    }
}

// PluginType.swift#1
@Sendable func pluginTypeExample1() async throws {
    struct UserAgentPlugin: PluginType {
        func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
            var request = request
            request.setValue("MyApp/1.0", forHTTPHeaderField: "User-Agent")
            return request
        }
    }
}

// Provider+Outbox.swift#1
@Sendable func providerOutboxExample1() async throws {
    let provider = Provider<Posts>()
    let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    let folder = support.appendingPathComponent("Outbox")
    let posts = try provider.outbox(named: "posts", in: folder)
    try await posts.enqueue(.like(postID: 42))
    _ = support
    _ = folder
    _ = posts
}

// Provider+Requests.swift#1
@Sendable func providerRequestsExample1() async throws {
    let user = try await provider.request(.user("octocat"), as: User.self)
    _ = user
}

// Provider+Requests.swift#2
@Sendable func providerRequestsExample2() async throws {
    let request = provider.request(.zen) { result in
        if case .success(let response) = result { print((try? response.mapString()) ?? "") }
    }
    request.cancel()   // completion gets .failure(.cancelled)
    _ = request
}

// Provider+Requests.swift#3
@Sendable func providerRequestsExample3() async throws {
    let provider = Provider<Files>()
    let file = URL(fileURLWithPath: "/tmp/report.pdf")
    for try await report in provider.requestWithProgress(.download(file)) {
        if let response = report.response { print("saved to", response.fileURL!) }
        else { print(Int(report.progress * 100), "%") }
    }
}

// Provider+ResumableDownloads.swift#1
@Sendable func providerResumableDownloadsExample1() async throws {
    let file = downloads.appendingPathComponent("dataset.zip")
    let response = try await datasets.download(.archive, resumingInto: file) { report in
        print(Int(report.progress * 100), "%")   // counts the bytes already on disk
    }
    _ = file
    _ = response
}

// Provider+ResumableUploads.swift#1
@Sendable func providerResumableUploadsExample1() async throws {
    let video = URL(fileURLWithPath: "/tmp/Uploads/talk.mov")
    let response = try await media.upload(.video, resumingFrom: video) { report in
        print(report.completedBytes, "bytes on the server")
    }
    _ = video
    _ = response
}

// Provider+ResumableUploads.swift#2
@Sendable func providerResumableUploadsExample2() async throws {
    let export = UploadStream(length: UInt64(report.count)) { InputStream(data: report) }
    let answer = try await media.upload(.video, resumingFrom: export, identifiedBy: "report-2026-11")
    _ = export
    _ = answer
}

// Provider+ResumableUploads.swift#3
@Sendable func providerResumableUploadsExample3() async throws {
    let unfinished = URL(fileURLWithPath: "/tmp/Uploads/talk.mov")
    try await media.cancelUpload(.video, of: unfinished)
    _ = unfinished
}

// Provider+Streaming.swift#1
@Sendable func providerStreamingExample1() async throws {
    let provider = Provider<Streams>()
    let streamed = try await provider.stream(.logs(follow: true))
    for try await line in streamed.lines { print(line) }
    _ = streamed
}

// Provider+Streaming.swift#2
@Sendable func providerStreamingExample2() async throws {
    let provider = Provider<Streams>()
    for try await event in provider.events(.notifications) where event.type == "message" {
        print(event.data)
    }
}

// Provider+WebSocket.swift#1
@Sendable func providerWebSocketExample1() async throws {
    let provider = Provider<Chat>()
    let socket = try await provider.webSocket(.chat(room: 42))
    try await socket.send(.text("hello"))
    for try await message in socket.messages { print(message) }
    _ = socket
}

// Provider.swift#1
@Sendable func providerExample1() async throws {
    let provider = Provider<GitHub>(plugins: [MyLogger()], interceptor: MyAuth())
    let user = try await provider.request(.user("octocat")).map(User.self)
    provider.request(.zen) { result in print(result) }
    _ = provider
    _ = user
}

// ProviderOptions.swift#1
@Sendable func providerOptionsExample1() async throws {
    let provider = Provider<GitHub>(
        options: ProviderOptions(cookies: CookieJar(), cache: HTTPCache(), resilience: .standard))
    _ = provider
}

// RedirectPolicy.swift#1
@Sendable func redirectPolicyExample1() async throws {
    let refusing = Provider<MyAPI>(options: ProviderOptions(redirects: .refuse))
    let stamped = Provider<MyAPI>(options: ProviderOptions(redirects: .modify { request, _ in
        var request = request
        request.setValue("1", forHTTPHeaderField: "X-Redirected")
        return request
    }))
    _ = refusing
    _ = stamped
}

// RedirectPolicy.swift#2
@Sendable func redirectPolicyExample2() async throws {
    let legacy = ProviderOptions(redirects: .follow.allowingDowngrade())
    _ = legacy
}

// ConcurrencyLimit.swift#1
@Sendable func concurrencyLimitExample1() async throws {
    let policy = ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 8, queueLimit: 64))
    _ = policy
}

// Hedging.swift#1
@Sendable func hedgingExample1() async throws {
    let policy = ResiliencePolicy(hedging: Hedging(delay: .percentile(0.95, atLeast: 0.05)))
    _ = policy
}

// RateLimit.swift#1
@Sendable func rateLimitExample1() async throws {
    // "5 requests per 10 seconds", waiting up to 10 s for a turn
    let limit = RateLimit(permits: 5, interval: 10, maximumWait: 10)
    _ = limit
}

// RateLimit.swift#2
@Sendable func rateLimitExample2() async throws {
    var policy = ResiliencePolicy.standard
    policy.serverBackOff = ServerBackOff(maximumWait: 0)   // fail at once, never wait
}

// ResilienceError.swift#1
@Sendable func resilienceErrorExample1() async throws {
    do {
        _ = try await provider.request(.zen)
    } catch .transport(let refusal as ResilienceError, _) {
        if case .circuitOpen(let retryAfter) = refusal { print("offline; trying again in \(retryAfter) s") }
    } catch {
        print(error)
    }
}

// ResiliencePolicy.swift#1
@Sendable func resiliencePolicyExample1() async throws {
    let provider = Provider<GitHub>(interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard))
    _ = provider
}

// ResiliencePolicy.swift#2
enum SearchPolicies {
    case query, suggestions
var resilience: ResiliencePolicy? {
    switch self {
    case .suggestions: ResiliencePolicy.standard.with(hedging: Hedging(delay: .fixed(0.2)))
    default: nil   // the provider's
    }
}
}

// RetryBudget.swift#1
@Sendable func retryBudgetExample1() async throws {
    let budget = RetryBudget(ratio: 0.1, minimumPerSecond: 1)
    _ = budget
}

// Response+Links.swift#1
@Sendable func responseLinksExample1() async throws {
    let provider = Provider<Repositories>()
    var page = try await provider.request(.list(owner: "apple"))
    while let next = page.links["next"], next.host == page.request?.url?.host {
        page = try await provider.request(.page(next))   // a case whose baseURL is the link
    }
    _ = provider
}

// Response+Mapping.swift#1
@Sendable func responseMappingExample1() async throws {
    let response = sampleResponse
    let user = try response.map(User.self)
    let names = try response.map([String].self, atKeyPath: "data.names")
    _ = user
    _ = names
}

// Response.swift#1
@Sendable func responseExample1() async throws {
    let response = try await provider.request(.user("octocat"))
    let user = try response.filterSuccessfulStatusCodes().map(User.self)
    _ = response
    _ = user
}

// ClientIdentity.swift#1
@Sendable func clientIdentityExample1() async throws {
    let secrets = URL(fileURLWithPath: "/etc/courier", isDirectory: true)
    let identity = ClientIdentity.pem(
        certificateChain: try Data(contentsOf: secrets.appendingPathComponent("client.pem")),
        privateKey: try Data(contentsOf: secrets.appendingPathComponent("client.key")))
    _ = secrets
    _ = identity
}

// Redaction.swift#1
@Sendable func redactionExample1() async throws {
    var redaction = Redaction.default
    redaction.headers.insert("X-Tenant-Key")
    redaction.fieldNames.insert("pin")
    let logger = NetworkLoggerPlugin(configuration: .init(redaction: redaction))
    _ = logger
}

// SPKIPin.swift#1
@Sendable func sPKIPinExample1() async throws {
    let pin = try SPKIPin("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
    _ = pin
}

// SPKIPin.swift#2
@Sendable func sPKIPinExample2() async throws {
    let pin = try SPKIPin(certificate: Data(contentsOf: URL(fileURLWithPath: "server.pem")))
    print(pin)   // sha256/…, for the policy
    _ = pin
}

// TrustPolicy.swift#1
@Sendable func trustPolicyExample1() async throws {
    var trust = TrustPolicy()
    try trust.pin("**.bank.example", to: [
        "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",   // the current key
        "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",   // the backup, kept offline
    ], expires: Date(timeIntervalSinceNow: 365 * 86_400))
    let bank = Provider<Bank>(options: ProviderOptions(trust: trust))
    _ = bank
}

// EventReconnection.swift#1
@Sendable func eventReconnectionExample1() async throws {
    let provider = Provider<Streams>()
    let feed = provider.events(.feed, reconnection: EventReconnection(maximumAttempts: .max))
    _ = feed
}

// EventTerminator.swift#1
@Sendable func eventTerminatorExample1() async throws {
    let provider = Provider<Streams>()
    for try await event in provider.events(.completion(prompt), until: .data("[DONE]")) {
        print(event.data, terminator: "")
    }
}

// ServerSentEvent.swift#1
@Sendable func serverSentEventExample1() async throws {
    let provider = Provider<Streams>()
    for try await event in provider.events(.chat(prompt), until: .data("[DONE]")) {
        print(try event.decoded(as: Delta.self).text, terminator: "")
    }
}

// ServerSentEventParser.swift#1
@Sendable func serverSentEventParserExample1() async throws {
    let body = AsyncThrowingStream<Data, any Error> { $0.finish() }
    var parser = ServerSentEventParser()
    for try await chunk in body {
        for event in try parser.parse(chunk) { print(event.type, event.data) }
    }
}

// StreamSummary.swift#1
@Sendable func streamSummaryExample1() async throws {
    func didFinishStream(_ summary: StreamSummary, target: any TargetType) {
        print("\(summary.requestID): \(summary.bytes) bytes in \(summary.duration) s")
    }
}

// StreamedResponse.swift#1
@Sendable func streamedResponseExample1() async throws {
    let provider = Provider<Streams>()
    let streamed = try await provider.stream(.completion(prompt))
    for try await line in streamed.lines { print(line) }
    _ = streamed
}

// StreamedResponse.swift#2
@Sendable func streamedResponseExample2() async throws {
    let provider = Provider<Streams>()
    let streamed = try await provider.stream(.completion(prompt))
    for try await event in streamed.events(until: .data("[DONE]")) { print(event.data) }
}

// StreamingError.swift#1
@Sendable func streamingErrorExample1() async throws {
    let provider = Provider<Streams>()
    do {
        for try await line in try await provider.stream(.export).lines { store(line) }
    } catch let error as CourierError {
        if let streaming = error.underlyingError as? StreamingError, streaming.code == .lineTooLong {
            print("a line passed \(streaming.limit ?? 0) bytes")
        }
    }
}

// StreamingLimits.swift#1
@Sendable func streamingLimitsExample1() async throws {
    let provider = Provider<Streams>(options: ProviderOptions(streamingLimits: StreamingLimits(maximumEventLength: 64 << 20)))
    var limits = provider.streamingLimits
    limits.maximumBacklog = 1 << 30
    let export = try await provider.stream(.export, limits: limits)
    _ = provider
    _ = export
}

// SampleStream.swift#1
extension Streams {
var sampleStream: SampleStream? {
    switch self {
    case .completion: .events(data: ["Hel", "lo", "[DONE]"], every: 0.05)
    default: nil
    }
}
}

// StubBehavior.swift#1
@Sendable func stubBehaviorExample1() async throws {
    let provider = Provider<GitHub>(stubClosure: Provider.immediatelyStub)
    _ = provider
}

// WebSocketScript.swift#1
@Sendable func webSocketScriptExample1() async throws {
    struct ChatTarget {
    var sampleWebSocket: WebSocketScript {
        WebSocketScript(
            handshake: { request in
                request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh"
                    ? .accept() : .refuse(status: 401)
            },
            onOpen: [.send(.text("welcome"))],
            reply: { message in
                message == .text("bye") ? [.close(.normalClosure)] : [.send(message)]
            })
    }
    }
}

// ProviderClock.swift#1
@Sendable func providerClockExample1() async throws {
    let clock = TestClock()
    let provider = Provider<API>(options: ProviderOptions(resilience: .standard, clock: clock))
    _ = clock
    _ = provider
}

// URLRequest+HeaderField.swift#1
@Sendable func uRLRequestHeaderFieldExample1() async throws {
    var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
    request.setHeaderField("Bearer abc", named: "Authorization")
}

// HTTPTask.swift#1
@Sendable func hTTPTaskExample1() async throws {
    let address: Parameters = ["city": "Oslo", "zip": 150]
    let parameters: Parameters = ["name": "Ann", "address": address]
    _ = address
    _ = parameters
}

// HTTPTask.swift#2
enum SearchAPI {
    struct Item: Encodable, Sendable {}
    case search(String), create(Item), zen
var task: HTTPTask {
    switch self {
    case .search(let text): .requestParameters(parameters: ["q": text], encoding: URLEncoding.queryString)
    case .create(let item): .requestJSONEncodable(item)
    case .zen: .requestPlain
    }
}
}

// Idempotency.swift#1
enum PaymentsAPI {
    case pay, refunds
var idempotency: Idempotency {
    switch self {
    case .pay: .idempotencyKey()     // a POST made safe to retry, as Stripe's API allows
    default: .byMethod
    }
}
}

// MultiTarget.swift#1
@Sendable func multiTargetExample1() async throws {
    let provider = Provider<MultiTarget>()
    let user = try await provider.request(MultiTarget(GitHub.user("octocat")))
    let status = try await provider.request(.target(Status.current))
    _ = provider
    _ = user
    _ = status
}

// NamedTarget.swift#1
extension GitHub: NamedTarget {
    var caseName: String {
        switch self {
        case .user: "user"
        case .zen: "zen"
        }
    }
}

// TargetType+Underlying.swift#1
@Sendable func targetTypeUnderlyingExample1() async throws {
    func willSend(_ request: PreparedRequest, target: any TargetType) {
        if case .login? = target.underlyingTarget(as: MyAPI.self) { return }
    }
}

// TargetType.swift#1
@Sendable func targetTypeExample1() async throws {
    enum GitHub: TargetType {
        case user(String), zen
        var baseURL: URL { URL(string: "https://api.github.com")! }
        var path: String {
            switch self {
            case .user(let name): "/users/\(name)"
            case .zen: "/zen"
            }
        }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }
}

// TargetType.swift#2
extension Status {
var timeoutInterval: TimeInterval? { 1 }          // each attempt
var totalTimeoutInterval: TimeInterval? { 2.5 }   // the call, retries included
}

// TargetType.swift#3
@Sendable func targetTypeExample3() async throws {
    var headerFields: HeaderFields? {
        HeaderFields([.init(name: "X-Tag", value: "red"), .init(name: "X-Tag", value: "blue")])
    }
}

// DownloadDestination.swift#1
@Sendable func downloadDestinationExample1() async throws {
    let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("downloads")
    let destination: DownloadDestination = { _, response in
        let name = DownloadFileName.suggested(by: response)
        return (downloads.appendingPathComponent(name), [.createIntermediateDirectories, .removePreviousFile])
    }
    _ = downloads
    _ = destination
}

// MultipartFormData+Stream.swift#1
@Sendable func multipartFormDataStreamExample1() async throws {
    let form = MultipartFormData()
    let body = try form.uploadStream()
    for try await chunk in try body.chunks() { send(chunk) }
    _ = body
}

// MultipartFormData.swift#1
@Sendable func multipartFormDataExample1() async throws {
    var form = MultipartFormData()
    form.append(Data("Ann".utf8), name: "author")
    form.append(fileURL: photoURL, name: "photo")   // file name and MIME type inferred
    let task = HTTPTask.uploadMultipartFormData(form)
    _ = task
}

// UploadStream.swift#1
@Sendable func uploadStreamExample1() async throws {
    let body = UploadStream(length: UInt64(report.count)) { InputStream(data: report) }
    var task: HTTPTask { .uploadStream(body) }
    _ = body
}

// UploadStream.swift#2
@Sendable func uploadStreamExample2() async throws {
    let body = UploadStream(length: nil, replayable: false) { openAPIBody }
    _ = body
}

// DeadlineTimers.swift#1
@Sendable func deadlineTimersExample1() async throws {
    let timers = DeadlineTimers()   // one per transport, kept as long as it lives
    let exchange = Task { try await Task.sleep(for: .seconds(60)) }   // the engine's work
    let limit = timers.schedule(after: 30) { exchange.cancel() }
    _ = await exchange.result
    timers.cancel(limit)
    _ = timers
    _ = exchange
    _ = limit
}

// HeaderFields.swift#1
@Sendable func headerFieldsExample1() async throws {
    let response = sampleResponse
    let cookies = response.headerFields.values(for: "set-cookie")
    _ = cookies
}

// RequestOrigin.swift#1
@Sendable func requestOriginExample1() async throws {
    struct Tracing: Transport {
        let base: any Transport
        var capabilities: TransportCapabilities { base.capabilities.union(.requestOrigin) }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if let origin = request.origin { print(origin.target, "attempt", origin.attempt) }
            return try await base.send(request)
        }
    }
}

// Transport.swift#1
@Sendable func transportExample1() async throws {
    struct LoggingTransport: Transport {
        let base: any Transport
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            print("→", request.urlRequest.url!)
            return try await base.send(request)
        }
    }
}

// TransportBody.swift#1
@Sendable func transportBodyExample1() async throws {
    let task = Task<Void, Never> {}
    let (body, writer) = TransportBody.makeStream()
    writer.onTermination = { task.cancel() }
    // engine: writer.write(chunk) … writer.finish() or writer.fail(error)
    for try await chunk in body { consume(chunk) }
}

// TransportBody.swift#2
@Sendable func transportBodyExample2() async throws {
    let request = TransportRequest(urlRequest: URLRequest(url: URL(string: "https://example.com")!))
    let (body, writer) = TransportBody.makeStream(limits: request.streamingLimits)
    _ = (body, writer)
}

// TransportBody.swift#3
@Sendable func transportBodyExample3() async throws {
    let source = ExampleChunkSource()
    let request = Task<Void, Never> {}
    let body = TransportBody(pulling: { try await source.next() }, onTermination: { request.cancel() })
    _ = body
}

// TransportCapabilities.swift#1
@Sendable func transportCapabilitiesExample1() async throws {
    struct MyTransport: Transport {
        let engine: any Transport
        var capabilities: TransportCapabilities { [.timeouts] }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            try await engine.send(request)
        }
    }
}

// URLSessionTransport+Configuration.swift#1
@Sendable func uRLSessionTransportConfigurationExample1() async throws {
    let transport = URLSessionTransport(configuration: URLSessionTransport.moyaCompatibleConfiguration)
    let provider = Provider<GitHub>(transport: transport)
    _ = transport
    _ = provider
}

// WebSocket.swift#1
@Sendable func webSocketExample1() async throws {
    let provider = Provider<Chat>()
    let socket = try await provider.webSocket(.chat(room: 42))
    let reader = Task {
        for try await message in socket.messages { print(message) }  // until either side closes
    }
    try await socket.send(.text("hello"))
    try await socket.send(ChatMessage(text: "hi"))  // an Encodable value, as JSON text
    await socket.close()
    try await reader.value
    _ = socket
    _ = reader
}

// WebSocketCloseCode.swift#1
@Sendable func webSocketCloseCodeExample1() async throws {
    let socket = try await Provider<Chat>().webSocket(.chat(room: 1))
    await socket.close(code: .normalClosure)
    await socket.close(code: .application(4001)!, reason: "signed out")
}

// WebSocketCompression.swift#1
@Sendable func webSocketCompressionExample1() async throws {
    let provider = Provider<Chat>()
    var options = WebSocketOptions()
    options.compression = .deflate
    let socket = try await provider.webSocket(.chat(room: 42), options: options)
    _ = socket
}

// WebSocketMessage.swift#1
@Sendable func webSocketMessageExample1() async throws {
    let socket = try await Provider<Chat>().webSocket(.chat(room: 1))
    try await socket.send(.text("hello"))
    for try await message in socket.messages {
        if case .text(let text) = message { print(text) }
    }
}

// WebSocketOptions.swift#1
@Sendable func webSocketOptionsExample1() async throws {
    let provider = Provider<Chat>()
    var options = WebSocketOptions()
    options.subprotocols = ["graphql-transport-ws"]
    options.heartbeat = WebSocketHeartbeat(every: 20, timeout: 10)
    let socket = try await provider.webSocket(.subscriptions, options: options)
    _ = socket
}

// WebSocketReconnection.swift#1
@Sendable func webSocketReconnectionExample1() async throws {
    var options = WebSocketOptions()
    options.reconnection = WebSocketReconnection(maximumAttempts: 20) { socket in
        try await socket.send(.text(#"{"subscribe":"prices"}"#))
    }
}

// CacheTestsTable.swift#1
@Sendable func cacheTestsTableExample1() async throws {
    let casesFile = URL(fileURLWithPath: "/tmp/cases.json")
    let table = try CacheTestsTable(json: Data(contentsOf: casesFile))
    let report = try await table.run(on: URLSessionTransport())
    print(report.summary)
    _ = table
    _ = report
}

// ETagCounter.swift#1
@Sendable func eTagCounterExample1() async throws {
    let counter = ETagCounter()
    let server = try LoopbackServer { counter.answer($0) }
    _ = counter
    _ = server
}

// TransportConformance.swift#1
@Suite(.disabled("compiled, not run: a documentation example"))
struct ConformanceExample {
@Test(arguments: TransportConformance.Case.allCases)
func conforms(_ testCase: TransportConformance.Case) async throws {
    try await TransportConformance { MyTransport() }.check(testCase)
}
}

// WebSocketConformance.swift#1
@Suite(.disabled("compiled, not run: a documentation example"))
struct SocketConformanceExample {
    struct MyTransport: Transport {
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            throw URLError(.unsupportedURL)
        }
    }
@Test(arguments: WebSocketConformance.Case.allCases)
func sockets(_ testCase: WebSocketConformance.Case) async throws {
    try await WebSocketConformance { MyTransport() }.check(testCase)
}
}

// FaultInjectingTransport.swift#1
@Sendable func faultInjectingTransportExample1() async throws {
    let clock = TestClock()
    let faults = FaultInjectingTransport(
        clock: clock, seed: 7, latency: .fixed(0.02),
        outages: [Outage(from: 1, to: 11, fault: .status(503))])
    let provider = Provider<API>(transport: faults, interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard, clock: clock))
    _ = clock
    _ = faults
    _ = provider
}

// TestClock.swift#1
@Sendable func testClockExample1() async throws {
    let clock = TestClock()
    let provider = Provider<API>(interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard, clock: clock))
    let call = Task { try await provider.request(.me) }
    try await clock.waitForSleepers(1)   // the retry delay has started
    clock.advance(by: 1)                 // and is over
    _ = try await call.value
    _ = clock
    _ = provider
    _ = call
}

// Cassette.swift#1
@Sendable func cassetteExample1() async throws {
    let cassette = try Cassette(file: fixtures.appendingPathComponent("user.har"), mode: .fromEnvironment())
    let github = Provider<GitHub>(transport: cassette)
    _ = cassette
    _ = github
}

// HARMatching.swift#1
@Sendable func hARMatchingExample1() async throws {
    var matching = HARMatching.default
    matching.headers = ["Accept"]
    matching.body = true
}

// HARRecorder.swift#1
@Sendable func hARRecorderExample1() async throws {
    let recorder = HARRecorder(recording: URLSessionTransport(), to: fixtures.appendingPathComponent("user.har"))
    let github = Provider<GitHub>(transport: recorder)
    _ = recorder
    _ = github
}

// HARReplayer.swift#1
@Sendable func hARReplayerExample1() async throws {
    let replayer = try HARReplayer(file: fixtures.appendingPathComponent("user.har"))
    let github = Provider<GitHub>(transport: replayer)
    _ = replayer
    _ = github
}

// Provider+Result.swift#1
@Sendable func providerResultExample1() async throws {
    let result = await provider.result(for: .zen)
    #expect(try result.get().statusCode == 200)
    _ = result
}

// TestBox.swift#1
@Sendable func testBoxExample1() async throws {
    struct PathRecorder: PluginType {
        let seen: TestBox<[String]>
        func willSend(_ request: PreparedRequest, target: any TargetType) {
            seen.modify { $0.append(request.request.url?.path ?? "") }
        }
    }
}

// CallRecorder.swift#1
@Sendable func callRecorderExample1() async throws {
    let recorder = CallRecorder()
    let target = GitHub.zen
    let call = provider.request(target) { _ in }
    #expect(await recorder.wait(for: .send))
    call.cancel()
    _ = call
}

// HookEvent.swift#1
@Sendable func hookEventExample1() async throws {
    let recorder = CallRecorder()
    #expect(recorder.events == [
        .prepare("P1"), .willSend("P1", attempt: 1), .adapt(attempt: 1), .send,
        .didReceive("P1", .success(200)), .process("P1", .success(200)),
    ])
}

// RecordingInterceptor.swift#1
@Sendable func recordingInterceptorExample1() async throws {
    let recorder = CallRecorder()
    let interceptor = RecordingInterceptor(recorder: recorder, retry: { _, context in
        context.attempt < 2 ? .retry : .doNotRetry
    })
    _ = interceptor
    _ = interceptor
}

// RecordingPlugin.swift#1
@Sendable func recordingPluginExample1() async throws {
    let recorder = CallRecorder()
    let provider = Provider<API>(plugins: [RecordingPlugin("P1", recorder: recorder)])
    _ = recorder
    _ = provider
}

// ScriptedTransport.swift#1
@Sendable func scriptedTransportExample1() async throws {
    let auth = MyAuth()
    let transport = ScriptedTransport()
    transport.enqueue([.status(401), .json(200, #"{"name":"octocat"}"#)], for: GitHub.user("octocat"))
    let provider = Provider<GitHub>(transport: transport, interceptor: auth)
    _ = transport
    _ = provider
}

// ClosedPort.swift#1
@Sendable func closedPortExample1() async throws {
    let closed = try ClosedPort()
    let url = closed.baseURL   // every connection to it is refused
    _ = closed
    _ = url
}

// LoopbackServer.swift#1
@Sendable func loopbackServerExample1() async throws {
    let server = try LoopbackServer { request in
        request.path == "/zen" ? .text("Keep it logically awesome.") : ServerReply(status: 404)
    }
    defer { server.stop() }
    // point a target's baseURL at server.baseURL
    _ = server
}

// LoopbackServer.swift#2
@Sendable func loopbackServerExample2() async throws {
    let handler: LoopbackServer.Handler = { _ in ServerReply() }
    let server = try LoopbackServer(handler: handler)
    server.stop()                                   // clients are cut off, then refused
    let back = try LoopbackServer(port: server.port, handler: handler)
    _ = server
    _ = back
}

// MultipartParser.swift#1
@Sendable func multipartParserExample1() async throws {
    func parts(of request: ServerRequest) {
    let parts = MultipartParser.parse(request.body, contentType: request.header("Content-Type"))
    _ = parts
    }
}

// RangedResource.swift#1
@Sendable func rangedResourceExample1() async throws {
    let resource = RangedResource(Data(repeating: 7, count: 1 << 20))
    let server = try LoopbackServer { resource.reply(to: $0) }
    resource.cutNext(after: 300_000)       // the next answer stops there, the connection closed
    _ = resource
    _ = server
}

// ResumableUploadServer.swift#1
@Sendable func resumableUploadServerExample1() async throws {
    let uploads = ResumableUploadServer()
    let server = try LoopbackServer { uploads.reply(to: $0) }
    uploads.cutNextAppend(after: 300_000)   // keeps that much of the next append, then closes
    _ = uploads
    _ = server
}

// ServerReply.swift#1
@Sendable func serverReplyExample1() async throws {
    let reply: ServerReply =
    .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Len".utf8))])   // closes mid-headers
    _ = reply
}

// WebSocketPeer.swift#1
@Sendable func webSocketPeerExample1() async throws {
    let server = try WebSocketServer { peer in
        while case .message(let message)? = peer.receive() { peer.send(message) }
    }
    _ = server
}

// WebSocketServer.swift#1
@Sendable func webSocketServerExample1() async throws {
    let server = try WebSocketServer { peer in
        while case .message(let message)? = peer.receive() { peer.send(message) }   // an echo
    }
    defer { server.stop() }
    // a target whose baseURL is server.baseURL opens as a socket
    _ = server
}
