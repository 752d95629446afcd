// Generated from the README and the DocC articles by DocumentationSamplesTests: do not edit.
// Update: COURIER_UPDATE_SAMPLES=1 swift test --filter DocumentationSamples
// swift-format-ignore-file

import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The samples of README.md.
@Sendable func rEADMESamples() async throws {
    // sample 1
    enum GitHub: TargetType {
        case user(String), zen
        var baseURL: URL { URL(string: "https://api.github.com")! }
        var path: String { switch self { case .user(let name): "/users/\(name)"; case .zen: "/zen" } }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    let provider = Provider<GitHub>(plugins: [MyLogger()], interceptor: MyAuth())
    let user = try await provider.request(.user("octocat")).map(User.self)
    provider.request(.zen) { result in print(result) }   // completion API; returns a Cancellable
    _ = provider
    _ = user
    // sample 2
    let recorder = CallRecorder()
    let transport = ScriptedTransport()
    transport.enqueue([.status(401), .status(200)], for: GitHub.zen)
    let tested = Provider<GitHub>(
        transport: transport,
        plugins: [RecordingPlugin("Logger", recorder: recorder)],
        interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))
    _ = try await tested.request(.zen)
    #expect(recorder.events == [
        .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1),
        .retry(attempt: 1, .failure(.validation)),
        .prepare("Logger"), .willSend("Logger", attempt: 2), .adapt(attempt: 2),
        .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
    ])
    _ = recorder
    _ = transport
    _ = tested
    // sample 3
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Outbox")
    let outbox = try Provider<Posts>().outbox(named: "posts", in: folder)
    try await outbox.enqueue(.createPost(text: "Hello from the tunnel"))
    for await outcome in outbox.outcomes {
        print(outcome.kind, outcome.statusCode ?? 0)   // delivered, or rejected with its answer
        try await outbox.acknowledge(outcome)
    }
    _ = folder
    _ = outbox
    // sample 4
    let retrying = Provider<GitHub>(interceptor: .retryPolicy)
    _ = retrying
    // sample 5
    let authentication = AuthenticationInterceptor(
        authenticator: MyAuthenticator(), credential: savedTokens,
        onRefresh: { tokens, _ in print("store", tokens) },
        onRefreshFailure: { _, interceptor in interceptor.credential = nil })
    let signedIn = Provider<GitHub>(interceptor: Interceptor(interceptors: [authentication, .retryPolicy]))
    _ = authentication
    _ = signedIn
    // sample 6
    let files = Provider<Downloads>()
    for try await report in files.requestWithProgress(.report(to: URL(fileURLWithPath: "/tmp/report.pdf"))) {
        if let response = report.response { print("saved at", response.fileURL!) }
        else { print("\(Int(report.progress * 100)) %") }
    }
    _ = files
    // sample 7
    let file = URL(fileURLWithPath: "/tmp/Downloads/dataset.zip")
    let response = try await datasets.download(.archive, resumingInto: file) { report in
        print(report.completedBytes, "bytes on disk")
    }
    _ = file
    _ = response
}

/// The samples of AuthenticationAndRetries.md.
@Sendable func authenticationAndRetriesSamples() async throws {
    // sample 1
    struct Tokens: AuthenticationCredential, Decodable {
        let accessToken: String
        let refreshToken: String
        let expiresAt: Date
        /// Refreshed ahead of time, `refreshLeeway` (60 s by default) before this.
        var expiration: Date? { expiresAt }
    }

    enum Auth: TargetType {
        case refresh(token: String)
        var baseURL: URL { URL(string: "https://auth.example.com")! }
        var path: String { "/token" }
        var method: HTTPMethod { .post }
        var task: HTTPTask {
            switch self {
            case .refresh(let token): .requestParameters(parameters: ["refresh_token": token], encoding: URLEncoding.httpBody)
            }
        }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    struct OAuthAuthenticator: Authenticator {
        func apply(_ credential: Tokens, to request: URLRequest) -> URLRequest {
            var request = request
            request.setHeaderField("Bearer \(credential.accessToken)", named: "Authorization")
            return request
        }

        /// Sends the refresh call through the provider whose request asked for it (a
        /// `Provider<MultiTarget>` here): its plugins and logs, and no reference to keep.
        func refresh(_ credential: Tokens, context: RefreshContext) async throws -> Tokens {
            try await context.send(Auth.refresh(token: credential.refreshToken)).map(Tokens.self)
        }

        /// The sign-in and refresh calls carry no access token. `target` is your enum, even with a
        /// `Provider<MultiTarget>`.
        func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
            !(target is Auth)
        }
    }

    let saved = Tokens(accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
    let authentication = AuthenticationInterceptor(
        authenticator: OAuthAuthenticator(), credential: saved,
        onRefresh: { tokens, _ in print("store the new tokens in the keychain:", tokens.expiresAt) },
        onRefreshFailure: { error, interceptor in
            interceptor.credential = nil
            print("clear the keychain and sign the user out:", error)
        })
    let provider = Provider<MultiTarget>(interceptor: Interceptor(interceptors: [authentication, .retryPolicy]))
    print(try await provider.request(MultiTarget(GitHub.zen)).mapString())
    _ = saved
    _ = authentication
    _ = provider
    // sample 2
    struct BrowsingAuthenticator: Authenticator {
        func apply(_ credential: Tokens, to request: URLRequest) -> URLRequest {
            OAuthAuthenticator().apply(credential, to: request)
        }

        func refresh(_ credential: Tokens, context: RefreshContext) async throws -> Tokens {
            try await OAuthAuthenticator().refresh(credential, context: context)
        }

        /// Public data is signed only when the user has signed in; the token endpoint never is.
        func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement {
            switch target {
            case is Auth: .none
            case is GitHub: .optional
            default: .required
            }
        }
    }

    let browsing = Provider<MultiTarget>(
        interceptor: AuthenticationInterceptor(authenticator: BrowsingAuthenticator(), credential: nil))
    print(try await browsing.request(MultiTarget(GitHub.user("octocat"))).statusCode)
    _ = browsing
    // sample 3
    let patient = Provider<GitHub>(interceptor: .retryPolicy(retryLimit: 4, jitter: .proportional(0.2)))
    let lostConnectionsOnly = Provider<GitHub>(interceptor: .connectionLostRetryPolicy)
    print(patient.interceptor != nil, lostConnectionsOnly.interceptor != nil)
    _ = patient
    _ = lostConnectionsOnly
    // sample 4
    let addKey = Adapter { request, _ in
        var request = request
        request.setValue("my-key", forHTTPHeaderField: "X-API-Key")
        return request
    }
    let retryUnavailable = Retrier { _, error, context in
        error.response?.statusCode == 503 && context.attempt < 3 ? .retryWithDelay(1) : .doNotRetry
    }
    let keyed = Provider<GitHub>(interceptor: Interceptor(adapters: [addKey], retriers: [retryUnavailable]))
    print(keyed.plugins.count)
    _ = addKey
    _ = retryUnavailable
    _ = keyed
}

/// The samples of CachingAndCookies.md.
@Sendable func cachingAndCookiesSamples() async throws {
    // sample 1
    let cached = Provider<GitHub>(options: ProviderOptions(cache: HTTPCache()))
    _ = cached
    // sample 2
    let response = try await cached.request(.zen)
    switch response.cacheOutcome {
    case .fresh?: print("from the cache, no network")
    case .revalidated?: print("the server confirmed the stored answer with a 304")
    case .stale(let reason)?: print("stale, because \(reason)")
    default: print("from the network")
    }
    _ = response
    // sample 3
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
    let onDisk = HTTPCache(storage: try DiskCacheStorage(directory: folder, maximumBytes: 50_000_000))
    _ = folder
    _ = onDisk
    // sample 4
    let provider = Provider<MyAPI>(options: ProviderOptions(cookies: CookieJar()))
    _ = provider
    // sample 5
    let publicSuffixes: Set<String> = ["co.uk", "com.au", "github.io"]  // loaded from the list
    let jar = CookieJar(publicSuffix: { domain in !domain.contains(".") || publicSuffixes.contains(domain) })
    _ = publicSuffixes
    _ = jar
}

/// The samples of CallOrder.md.
@Sendable func callOrderSamples() async throws {
    // sample 1
    let recorder = CallRecorder()
    let transport = ScriptedTransport()
    transport.enqueue([.status(503), .status(200)], for: GitHub.zen)
    let provider = Provider<GitHub>(
        transport: transport,
        plugins: [RecordingPlugin("Logger", recorder: recorder)],
        interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))
    _ = try await provider.request(.zen)
    let expected: [HookEvent] = [
        .prepare("Logger"), .willSend("Logger", attempt: 1), .adapt(attempt: 1), .retry(attempt: 1, .failure(.validation)),
        .prepare("Logger"), .willSend("Logger", attempt: 2), .adapt(attempt: 2),
        .didReceive("Logger", .success(200)), .process("Logger", .success(200)),
    ]
    assert(recorder.events == expected)
    _ = recorder
    _ = transport
    _ = provider
    _ = expected
}

/// The samples of Courier.md.
@Sendable func courierSamples() async throws {
    // sample 1
    enum Zen: TargetType {
        case quote
        var baseURL: URL { URL(string: "https://api.github.com")! }
        var path: String { "/zen" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    let provider = Provider<Zen>(plugins: [NetworkLoggerPlugin()], interceptor: .retryPolicy)
    print(try await provider.request(.quote).mapString())
    _ = provider
}

/// The samples of GettingStarted.md.
@Sendable func gettingStartedSamples() async throws {
    // sample 1
    enum Catalog: TargetType {
        case products(page: Int)
        case product(id: Int)
        case create(NewProduct)

        var baseURL: URL { URL(string: "https://shop.example.com/api")! }

        var path: String {
            switch self {
            case .products, .create: "/products"
            case .product(let id): "/products/\(id)"
            }
        }

        var method: HTTPMethod {
            switch self {
            case .create: .post
            default: .get
            }
        }

        var task: HTTPTask {
            switch self {
            case .products(let page): .requestParameters(parameters: ["page": page], encoding: URLEncoding.queryString)
            case .product: .requestPlain
            case .create(let product): .requestJSONEncodable(product)
            }
        }

        var headers: [String: String]? { ["Accept": "application/json"] }
        var validationType: ValidationType { .successCodes }
    }

    struct NewProduct: Encodable, Sendable {
        let name: String
        let price: Double
    }
    // sample 2
    struct Product: Decodable {
        let id: Int
        let name: String
    }

    let shop = Provider<Catalog>()
    do {
        let product = try await shop.request(.product(id: 42), as: Product.self)
        let firstPage = try await shop.request(.products(page: 1)).map([Product].self, atKeyPath: "items")
        print(product.name, firstPage.count)
    } catch {
        print("failed at \(error.stage):", error.localizedDescription)
    }
    _ = shop
    // sample 3
    let repositories = Provider<Repositories>()
    var page = try await repositories.request(.list(owner: "apple"))
    var pages = [page]
    while let next = page.links["next"], next.host == page.request?.url?.host {
        page = try await repositories.request(.page(next))
        pages.append(page)
    }
    print("fetched \(pages.count) pages; the last is \(page.links["last"]?.absoluteString ?? "this one")")
    _ = repositories
    // sample 4
    let shopWithCallbacks = Provider<Catalog>(callbackQueue: DispatchQueue(label: "shop"))
    let call = shopWithCallbacks.request(.product(id: 42)) { result in
        switch result {
        case .success(let response): print(response.statusCode)
        case .failure(let error): print(error)
        }
    }
    call.cancel()  // the completion then receives .failure(.cancelled), once
    _ = shopWithCallbacks
    _ = call
}

/// The samples of LinuxNotes.md.
@Sendable func linuxNotesSamples() async throws {
    // sample 1
    #if canImport(FoundationNetworking)
    #endif
}

/// The samples of Logging.md.
@Sendable func loggingSamples() async throws {
    // sample 1
    let provider = Provider<GitHub>(plugins: [NetworkLoggerPlugin()])
    print(try await provider.request(.zen).statusCode)
    // Courier: [2026-11-22T11:53:50Z] Request #1 attempt 1: GET https://api.github.com/zen
    // Courier: [2026-11-22T11:53:50Z] Request Headers #1: []
    // Courier: [2026-11-22T11:53:50Z] Response #1: 200 GET https://api.github.com/zen (42 ms, 1 attempt)
    _ = provider
    // sample 2
    let logger = NetworkLoggerPlugin(configuration: .init(
        output: { _, entries in
            for entry in entries { FileHandle.standardError.write(Data((entry + "\n").utf8)) }
        },
        logOptions: .verbose))
    print(logger.configuration.maximumBodyBytes)
    _ = logger
    // sample 3
    let metrics = NetworkMetricsPlugin { metrics, _, target in
        let statuses = metrics.attempts.map { $0.statusCode.map(String.init) ?? "-" }
        print(target.path, metrics.duration, statuses)
    }
    let activity = NetworkActivityPlugin { change, _ in print(change) }
    let observed = Provider<GitHub>(plugins: [activity, metrics])
    print(observed.plugins.count)
    _ = metrics
    _ = activity
    _ = observed
}

/// The samples of MigratingFromMoya.md.
@Sendable func migratingFromMoyaSamples() async throws {
    // sample 1
    struct APIKeyAdapter: RequestInterceptor {
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            request.setValue("secret", forHTTPHeaderField: "X-API-Key")
            return request
        }

        func retry(_ request: URLRequest, dueTo error: CourierError, context: RequestContext) async -> RetryResult {
            error.response?.statusCode == 503 && context.attempt < 3 ? .retryWithDelay(1) : .doNotRetry
        }
    }
    // sample 2
    enum Shop: TargetType, AccessTokenAuthorizable {
        case items(page: Int)
        case buy(id: Int)

        var baseURL: URL { URL(string: "https://shop.example.com")! }
        var path: String {
            switch self {
            case .items: "/items"
            case .buy(let id): "/items/\(id)/buy"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .items: .get
            case .buy: .post
            }
        }
        var task: HTTPTask {
            switch self {
            case .items(let page): .requestParameters(parameters: ["page": page], encoding: URLEncoding.default)
            case .buy: .requestPlain
            }
        }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var sampleData: Data { Data(#"{"items":[]}"#.utf8) }
        var authorizationType: AuthorizationType? { .bearer }
    }
    // sample 3
    struct UserAgentPlugin: PluginType {
        func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
            var request = request
            request.setValue("Shop/1.0", forHTTPHeaderField: "User-Agent")
            return request
        }

        func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
            if case .failure(let error) = result { print("\(target.path) failed:", error) }
        }
    }

    let shop = Provider<Shop>(plugins: [UserAgentPlugin(), AccessTokenPlugin { _ in "token" }])
    print(try await shop.request(.items(page: 1)).statusCode)
    _ = shop
    // sample 4
    let cached = Provider<GitHub>(
        transport: URLSessionTransport(configuration: URLSessionTransport.moyaCompatibleConfiguration))
    _ = cached
    // sample 5
    let page = 2
    let filters: [String: any Sendable] = ["tags": ["swift", "linux"], "archived": false]
    let search = HTTPTask.requestParameters(
        parameters: ["page": page, "filters": filters], encoding: URLEncoding.queryString)
    _ = page
    _ = filters
    _ = search
    // sample 6
    final class RequestCounter: PluginType, @unchecked Sendable {
        // @unchecked Sendable: `count` is read and written only while holding `lock`.
        private let lock = NSLock()
        private var count = 0

        var requests: Int { lock.withLock { count } }

        func willSend(_ request: PreparedRequest, target: any TargetType) {
            lock.withLock { count += 1 }
        }
    }
    let counter = RequestCounter()
    let counted = Provider<GitHub>(plugins: [counter])
    _ = counter
    _ = counted
    // sample 7
    @MainActor final class ProfileModel {
        var name = ""

        func load(with provider: Provider<GitHub>) async throws {
            let user = try await provider.request(.user("octocat")).map(User.self)
            name = user.login  // on the main actor
        }

        func load(with provider: Provider<GitHub>, completion: @escaping @MainActor () -> Void) {
            provider.request(.user("octocat")) { result in
                let login = (try? result.get().map(User.self))?.login
                Task { @MainActor in
                    self.name = login ?? ""
                    completion()
                }
            }
        }
    }
    // sample 9
    let github = Provider<GitHub>()
    let disposable = github.rx.request(.user("octocat"))
        .filterSuccessfulStatusCodes()
        .map(User.self)
        .subscribe { event in
            switch event {
            case .success(let user): print(user.login)
            case .failure(let error): print(error)
            }
        }
    _ = github
    _ = disposable
}

/// The samples of Resilience.md.
@Sendable func resilienceSamples() async throws {
    // sample 1
    let provider = Provider<GitHub>(interceptor: .retryPolicy, options: ProviderOptions(resilience: .standard))
    _ = provider
    // sample 2
    var patient = ResiliencePolicy.standard
    patient.serverBackOff = ServerBackOff(maximumWait: 120)   // wait out a longer back-off
    patient.circuitBreaker = nil                               // no breaker for this API
    let tolerant = Provider<GitHub>(interceptor: .retryPolicy, options: ProviderOptions(resilience: patient))
    _ = tolerant
    // sample 3
    do {
        _ = try await provider.request(.zen)
    } catch .transport(ResilienceError.rateLimitExhausted(let reset), _) {
        print("GitHub's rate limit is spent; back at \(reset)")
    } catch {
        print(error)
    }
    // sample 6
    struct BreakerLog: ObservingPlugin {
        func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
            for transition in outcome.metrics.resilience?.circuitTransitions ?? [] {
                print(transition)  // circuit https://api.example.com closed → open
            }
        }
    }
    // sample 7
    do {
        _ = try await provider.request(.zen)
    } catch .transport(let refusal as ResilienceError, _) {
        print(refusal.localizedDescription)
    } catch {
        print(error)
    }
    // sample 8
    let search = Provider<GitHub>(
        interceptor: .retryPolicy,
        options: ProviderOptions(resilience: .standard.with(hedging: Hedging(delay: .percentile(0.95, atLeast: 0.05)))))
    _ = search
    // sample 9
    let clock = TestClock()
    let faults = FaultInjectingTransport(clock: clock, outages: [Outage(from: 0, to: 10, fault: .status(503))])
    let tested = Provider<GitHub>(transport: faults, options: ProviderOptions(resilience: .standard, clock: clock))
    for _ in 0..<10 { _ = await tested.result(for: .zen) }
    clock.advance(by: 5)   // the break is over: the next request is a probe
    _ = await tested.result(for: .zen)
    _ = clock
    _ = faults
    _ = tested
}

/// The samples of SecureDefaults.md.
@Sendable func secureDefaultsSamples() async throws {
    // sample 1
    do {
        _ = try await Provider<GitHub>().request(.zen)
    } catch {
        if case .invalidHeaderValue(let name, let problem)? = error.underlyingError as? RequestValidationError {
            print("header \(name) has \(problem)")
        }
    }
    // sample 2
    let downloads = FileManager.default.temporaryDirectory
    let destination: DownloadDestination = { _, response in
        (downloads.appendingPathComponent(DownloadFileName.suggested(by: response)), [.removePreviousFile])
    }
    print(DownloadFileName.sanitized("../../etc/passwd") ?? "-")  // passwd
    _ = downloads
    _ = destination
    // sample 3
    var redaction = Redaction.default
    redaction.headers.insert("X-Tenant-Key")
    redaction.fieldNames.insert("pin")
    let logged = Provider<GitHub>(plugins: [NetworkLoggerPlugin(configuration: .init(redaction: redaction))])
    print(logged.plugins.count)
    _ = logged
    // sample 4
    var trust = TrustPolicy()
    try trust.pin("**.bank.example", to: [
        "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",   // the key in use
        "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",   // a backup key, kept offline
    ], expires: Date(timeIntervalSinceNow: 180 * 86_400))
    let banking = Provider<Bank>(options: ProviderOptions(trust: trust))
    _ = banking
}

/// The samples of SendingWhenOffline.md.
@Sendable func sendingWhenOfflineSamples() async throws {
    // sample 1
    enum Notes: TargetType, Codable {
        case create(text: String)
        case like(noteID: Int)

        var baseURL: URL { URL(string: "https://notes.example")! }
        var path: String {
            switch self {
            case .create: "/notes"
            case .like(let id): "/notes/\(id)/likes"
            }
        }
        var method: HTTPMethod { .post }
        var task: HTTPTask {
            switch self {
            case .create(let text): .requestJSONEncodable(["text": text])
            case .like: .requestPlain
            }
        }
        var headers: [String: String]? { nil }
    }

    let notes = Provider<Notes>(interceptor: MyAuth())
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("Outbox")
    let outbox = try notes.outbox(named: "notes", in: folder)

    let entry = try await outbox.enqueue(.create(text: "Hello from the tunnel"))
    // The entry is on disk now: whatever happens to the process, it will be sent.
    print("queued", entry.id)

    Task {
        for await outcome in outbox.outcomes {
            switch outcome.kind {
            case .delivered: print("sent", outcome.id)
            default: print("failed", outcome.id, outcome.statusCode ?? 0, outcome.body.count)
            }
            try? await outbox.acknowledge(outcome)
        }
    }
    _ = notes
    _ = folder
    _ = outbox
    _ = entry
    // sample 2
    let transport = ScriptedTransport()
    let offline = ScriptedReply.failure(URLError(.notConnectedToInternet))
    transport.enqueue(Array(repeating: offline, count: 3) + [.json(201, #"{"id":1}"#)], for: Notes.like(noteID: 7))

    var quick = OutboxOptions()
    quick.delay = 0.01
    let scripted = try Provider<Notes>(transport: transport).outbox(named: "test", in: folder, options: quick)
    try await scripted.enqueue(.like(noteID: 7))
    for await outcome in scripted.outcomes {
        // Delivered on the fourth try; every try carried the entry's one Idempotency-Key.
        print(outcome.kind, outcome.attempts)
        try await scripted.acknowledge(outcome)
        break
    }
    _ = transport
    _ = offline
    _ = scripted
}

/// The samples of SourceStability.md.
@Sendable func sourceStabilitySamples() async throws {
    // sample 1
    let provider = Provider<GitHub>()
    do {
        _ = try await provider.request(.zen)
    } catch {
        let authentication = error.underlyingError as? AuthenticationError
        if authentication?.code == .refreshFailed, error.response?.statusCode == 401 {
            print("Signed out")
        }
    }
    _ = provider
    // sample 2
    func message(for failure: TransportFailure) -> String {
        switch failure.kind {
        case .timedOut: "The server took too long to answer."
        case .notConnectedToInternet: "You are offline."
        default: "The request failed."
        }
    }
}

/// The samples of StreamingAndServerSentEvents.md.
@Sendable func streamingAndServerSentEventsSamples() async throws {
    // sample 1
    let provider = Provider<GitHub>()
    let streamed = try await provider.stream(.zen)
    for try await line in streamed.lines {
        print(line)
    }
    _ = provider
    _ = streamed
    // sample 2
    struct Token: Decodable, Sendable { let text: String }

    for try await token in try await provider.stream(.zen).decodedLines(as: Token.self) {
        print(token.text, terminator: "")
    }
    // sample 3
    for try await event in provider.events(.zen) {
        print(event.type, event.data)
    }
    // sample 4
    var lastHandled = ""
    for try await event in provider.events(.zen, lastEventID: lastHandled) {
        lastHandled = event.lastEventID
    }
    // sample 5
    for try await event in provider.events(.zen, until: .data("[DONE]")) {
        print(event.data, terminator: "")
    }
    // sample 6
    enum ChatAPI: TargetType {
        case chat(String)
        var baseURL: URL { URL(string: "https://llm.example.com")! }
        var path: String { "/v1/chat/completions" }
        var method: HTTPMethod { .post }
        var task: HTTPTask {
            switch self {
            case .chat(let prompt):
                .requestParameters(
                    parameters: ["model": "small", "stream": true, "messages": [["role": "user", "content": prompt]]],
                    encoding: JSONEncoding.default)
            }
        }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var timeoutInterval: TimeInterval? { 30 }  // each wait: the first token, then every next one
    }

    struct ChatChunk: Decodable, Sendable {
        struct Choice: Decodable, Sendable {
            struct Delta: Decodable, Sendable { let content: String? }
            let delta: Delta
        }
        let choices: [Choice]
    }

    func answer(_ prompt: String, with provider: Provider<ChatAPI>) async throws -> String {
        var text = ""
        let streamed = try await provider.stream(.chat(prompt))
        for try await event in streamed.events(until: .data("[DONE]")) {
            let chunk = try event.decoded(as: ChatChunk.self)
            text += chunk.choices.first?.delta.content ?? ""
        }
        return text
    }
    // sample 7
    let chat = Provider<ChatAPI>(interceptor: .retryPolicy)
    let answering = Task { try await answer("Tell me a story", with: chat) }
    answering.cancel()  // the Stop button
    _ = chat
    _ = answering
    // sample 8
    struct OllamaChunk: Decodable, Sendable {
        struct Message: Decodable, Sendable { let content: String }
        let message: Message
        let done: Bool
    }

    func answerLines(_ prompt: String, with provider: Provider<ChatAPI>) async throws -> String {
        var text = ""
        for try await chunk in try await provider.stream(.chat(prompt)).decodedLines(as: OllamaChunk.self) {
            text += chunk.message.content
            if chunk.done { break }
        }
        return text
    }
    // sample 9
    enum Assistant: TargetType {
        case reply(String)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { "/reply" }
        var method: HTTPMethod { .post }
        var task: HTTPTask {
            switch self {
            case .reply(let prompt): .requestParameters(parameters: ["prompt": prompt], encoding: JSONEncoding.default)
            }
        }
        var headers: [String: String]? { nil }
        var sampleStream: SampleStream? { .events(data: ["Hel", "lo", "!", "[DONE]"], every: 0.05) }
    }

    let assistant = Provider<Assistant>(stubClosure: Provider.immediatelyStub)
    var reply = ""
    for try await event in assistant.events(.reply("Hi"), until: .data("[DONE]")) {
        reply += event.data
    }
    _ = assistant
}

/// The samples of TestingYourAPI.md.
@Sendable func testingYourAPISamples() async throws {
    // sample 1
    let stubbed = Provider<GitHub>(stubClosure: Provider.immediatelyStub)
    let user = try await stubbed.request(.user("octocat"), as: User.self)
    print(user.login)
    _ = stubbed
    _ = user
    // sample 2
    let offline = Provider<GitHub>(
        endpointClosure: { target in
            Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                .networkError(URLError(.notConnectedToInternet))
            })
        },
        stubClosure: Provider.immediatelyStub)
    do {
        _ = try await offline.request(.zen)
    } catch {
        print((error.underlyingError as? TransportFailure)?.kind == .notConnectedToInternet)
    }
    _ = offline
    // sample 3
    let transport = ScriptedTransport()
    transport.enqueue([.status(401), .json(200, #"{"login":"octocat","id":1}"#)], for: GitHub.user("octocat"))
    let scripted = Provider<GitHub>(transport: transport, interceptor: Retrier { _, error, _ in
        error.response?.statusCode == 401 ? .retry : .doNotRetry
    })
    print(try await scripted.request(.user("octocat"), as: User.self).login, transport.requests.count)
    _ = transport
    _ = scripted
    // sample 4
    let fixtures = URL(fileURLWithPath: "Tests/Fixtures", isDirectory: true)
    let cassette = try Cassette(file: fixtures.appendingPathComponent("octocat.har"))
    let github = Provider<GitHub>(transport: cassette)
    let octocat = try await github.request(.user("octocat"), as: User.self)
    print(octocat.login, cassette.isRecording ? "recorded" : "replayed")
    _ = fixtures
    _ = cassette
    _ = github
    _ = octocat
    // sample 5
    let replayer = try HARReplayer(file: fixtures.appendingPathComponent("octocat.har"), order: .firstMatch)
    replayer.inject(.status(503, retryAfter: 1), atExchange: 1)
    let flaky = Provider<GitHub>(transport: replayer, interceptor: RetryPolicy())
    print(try await flaky.request(.user("octocat")).statusCode)   // 200, after one retry
    _ = replayer
    _ = flaky
    // sample 6
    let server = try LoopbackServer { request in
        request.path == "/zen" ? .text("Keep it logically awesome.") : ServerReply(status: 404)
    }
    defer { server.stop() }
    struct Local: TargetType {
        let baseURL: URL
        var path: String { "/zen" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }
    print(try await Provider<Local>().request(Local(baseURL: server.baseURL)).mapString())
    _ = server
    // sample 7
    let local = Provider<GitHub>(endpointClosure: { target in
        Provider.defaultEndpointMapping(for: target).replacing(origin: server.baseURL)
    })
    print(try await local.request(.zen).mapString())
    _ = local
}

/// The samples of UploadsAndDownloads.md.
@Sendable func uploadsAndDownloadsSamples() async throws {
    // sample 1
    enum Files: TargetType {
        case upload(URL)
        case attach(photo: URL, caption: String)
        case download(name: String, to: URL)

        var baseURL: URL { URL(string: "https://files.example.com")! }
        var path: String {
            switch self {
            case .upload: "/files"
            case .attach: "/attachments"
            case .download(let name, _): "/files/\(name)"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .download: .get
            default: .post
            }
        }
        var task: HTTPTask {
            switch self {
            case .upload(let file):
                return .uploadFile(file)
            case .attach(let photo, let caption):
                var form = MultipartFormData()
                form.append(Data(caption.utf8), name: "caption")
                form.append(fileURL: photo, name: "photo")  // file name and MIME type inferred
                return .uploadMultipartFormData(form)
            case .download(_, let destination):
                return .downloadDestination { _, _ in (destination, [.createIntermediateDirectories, .removePreviousFile]) }
            }
        }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }
    // sample 2
    let file = downloads.appendingPathComponent("dataset.zip")
    let response = try await datasets.download(.archive, resumingInto: file) { report in
        print(report.completedBytes, "of", report.expectedBytes ?? 0)   // bytes on disk, from earlier runs too
    }
    print(response.statusCode, response.fileURL?.path ?? "")   // 200, the whole file at `file`
    _ = file
    _ = response
    // sample 3
    let video = URL(fileURLWithPath: "/tmp/Uploads/talk.mov")
    let uploaded = try await media.upload(.video, resumingFrom: video) { report in
        print(report.completedBytes, "of", report.expectedBytes ?? 0)   // what the server has
    }
    print(uploaded.statusCode)   // the server's answer to the whole upload
    _ = video
    _ = uploaded
    // sample 4
    let sending = Task { try await media.upload(.video, resumingFrom: video) }
    sending.cancel()                                                // pause: the server keeps what it has
    _ = try await media.upload(.video, resumingFrom: video)         // resume: HEAD, then the rest
    try await media.cancelUpload(.video, of: video)                 // cancel: DELETE, the state removed
    _ = sending
    // sample 5
    let tusAnswer = try await media.upload(.video, resumingFrom: video, speaking: .tus)
    print(tusAnswer.statusCode)   // 204
    _ = tusAnswer
    // sample 6
    let backup = Data(repeating: 7, count: 1 << 20)
    let exported = UploadStream(length: UInt64(backup.count)) { InputStream(data: backup) }
    _ = try await media.upload(.video, resumingFrom: exported, identifiedBy: "backup-2026-11-27")
    _ = backup
    _ = exported
    // sample 7
    let files = Provider<Files>()
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")
    for try await report in files.requestWithProgress(.download(name: "report.pdf", to: destination)) {
        if let response = report.response {
            print("saved at", response.fileURL?.path ?? "?")
        } else {
            print("\(Int(report.progress * 100)) %, \(report.completedBytes) bytes")
        }
    }
    _ = files
    _ = destination
}

/// The samples of CourierTesting.md.
@Sendable func courierTestingSamples() async throws {
    // sample 1
    let recorder = CallRecorder()
    let transport = ScriptedTransport()
    transport.enqueue([.status(401), .status(200)], for: GitHub.zen)
    let provider = Provider<GitHub>(
        transport: transport,
        plugins: [RecordingPlugin("Logger", recorder: recorder)],
        interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))
    _ = try await provider.request(.zen)
    print(recorder.events.map(\.description))
    _ = recorder
    _ = transport
    _ = provider
}

/// The samples of PortingYourTests.md.
@Sendable func portingYourTestsSamples() async throws {
    // sample 1
    let stubbed = Provider<GitHub>(stubClosure: Provider.immediatelyStub)
    let result = await stubbed.result(for: .zen)
    print((try? result.get())?.statusCode ?? 0)
    _ = stubbed
    _ = result
    // sample 2
    struct PathRecorder: PluginType {
        let seen: TestBox<[String]>
        func willSend(_ request: PreparedRequest, target: any TargetType) {
            seen.modify { $0.append(request.request.url?.path ?? "") }
        }
    }

    let seen = TestBox<[String]>([])
    let recorded = Provider<GitHub>(stubClosure: Provider.immediatelyStub, plugins: [PathRecorder(seen: seen)])
    _ = await recorded.result(for: .zen)
    print(seen.value)
    _ = seen
    _ = recorded
    // sample 3
    let failing = Provider<GitHub>(
        endpointClosure: { target in
            Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                .networkError(URLError(.notConnectedToInternet))
            })
        },
        stubClosure: Provider.immediatelyStub)
    if case .failure(let error) = await failing.result(for: .zen) {
        print(error.stage == .transport)
    }
    _ = failing
    // sample 4
    let calls = CallRecorder()
    let ordered = Provider<GitHub>(
        stubClosure: Provider.immediatelyStub, plugins: [RecordingPlugin("Logger", recorder: calls)])
    _ = await ordered.result(for: .zen)
    print(calls.events.map(\.description))
    // ["Logger.prepare", "Logger.willSend#1", "Logger.didReceive success(200)", "Logger.process success(200)"]
    _ = calls
    _ = ordered
    // sample 5
    let viaCompletion = Provider<GitHub>(stubClosure: Provider.immediatelyStub)
    let status = await withCheckedContinuation { continuation in
        viaCompletion.request(.zen) { result in continuation.resume(returning: (try? result.get())?.statusCode) }
    }
    print(status ?? 0)
    _ = viaCompletion
    _ = status
}

/// The samples of WritingYourOwnTransport.md.
@Sendable func writingYourOwnTransportSamples() async throws {
    // sample 1
    /// Logs each request, then sends it with URLSession.
    struct LoggingTransport: Transport {
        let base = URLSessionTransport()
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            print("→", request.urlRequest.httpMethod ?? "GET", request.urlRequest.url?.path ?? "")
            return try await base.send(request)
        }
    }

    let provider = Provider<GitHub>(transport: LoggingTransport())
    _ = provider
    // sample 2
    /// An engine that answers every request with its own body, as an HTTP client would send it.
    struct EchoEngine: Transport {
        var capabilities: TransportCapabilities { [] }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var body = Data()
            switch request.body {
            case .inline: body = request.urlRequest.httpBody ?? Data()
            case .file(let url): body = try Data(contentsOf: url)
            case .multipart(let form):
                if case .data(let data) = try form.encodedForUpload() { body = data }
            case .stream(let stream):
                for try await chunk in try stream.chunks() { body.append(chunk) }
            }
            let head: HeaderFields = ["Content-Type": "application/octet-stream"]
            guard request.delivery == .file else {
                return TransportResponse(statusCode: 200, headerFields: head, url: request.urlRequest.url!, data: body)
            }
            let file = try DownloadFile()
            guard file.write(body), file.flush() else {
                file.delete()
                throw TransferError.cannotWriteFile(file.url)
            }
            file.close()
            return TransportResponse(
                statusCode: 200, headerFields: head, url: request.urlRequest.url!, data: Data(), fileURL: file.url)
        }
    }

    let echoing = Provider<GitHub>(transport: EchoEngine())
    _ = echoing
    // sample 3
    struct StreamingEchoEngine: Transport {
        let whole = EchoEngine()

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard request.delivery == .stream else { return try await whole.send(request) }
            var inMemory = request
            inMemory.delivery = .memory
            let answer = try await whole.send(inMemory)
            let (body, writer) = TransportBody.makeStream(limits: request.streamingLimits)
            let feeding = Task {
                for offset in stride(from: 0, to: answer.data.count, by: 16_384) {
                    writer.write(answer.data.subdata(in: offset..<min(offset + 16_384, answer.data.count)))
                }
                writer.finish()
            }
            writer.onTermination = { feeding.cancel() }
            return TransportResponse(
                statusCode: answer.statusCode, headerFields: answer.headerFields, url: request.urlRequest.url!,
                stream: body)
        }
    }
    // sample 4
    /// Opens sockets with a client of its own; every other request goes to `base`.
    struct SocketEngine: Transport {
        let base: any Transport
        let open: @Sendable (URLRequest, WebSocketUpgrade) async throws -> (TransportResponse, (any WebSocketConnection)?)

        var capabilities: TransportCapabilities { base.capabilities.union(.webSocket) }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard let upgrade = request.webSocket else { return try await base.send(request) }
            let (answer, connection) = try await open(request.urlRequest, upgrade)
            if answer.statusCode == 101, let connection { upgrade.accept(connection) }
            return answer
        }
    }
    // sample 5
    let conformance = TransportConformance { LoggingTransport() }
    for testCase in TransportConformance.Case.allCases {
        try await conformance.check(testCase)
    }
    _ = conformance
    // sample 6
    let sockets = WebSocketConformance { SocketEngine(base: URLSessionTransport(), open: openSocket) }
    try await sockets.check(.echo)
    _ = sockets
}

// AuthenticationAndRetries.md, sample 5
extension MyAPI {
    var totalTimeoutInterval: TimeInterval? { 1 }
}

// CachingAndCookies.md, sample 6
extension Downloads {
    var handlesCookies: Bool { false }
}

// MigratingFromMoya.md, sample 8
extension Provider {
    /// RxMoya's `provider.rx`.
    var rx: Reactive<Provider<Target>> { Reactive(self) }
}

extension Reactive {
    /// RxMoya's `request(_:callbackQueue:)`: one response or one error; disposing cancels.
    func request<Target>(_ target: Target, callbackQueue: DispatchQueue? = nil) -> Single<Response>
    where Base == Provider<Target> {
        Single.create { single in
            let observer = SingleObserverBox(single)
            let request = base.request(target, callbackQueue: callbackQueue) { result in
                observer.send(result.mapError { $0 as any Error })
            }
            return Disposables.create { request.cancel() }
        }
    }
}

/// Carries a `Single`'s observer, a plain closure, into Courier's `@Sendable` completion.
// @unchecked Sendable: Courier calls the completion once, and RxSwift accepts a Single's one
// event from any thread; `send` is the only use of `observer`.
final class SingleObserverBox<Element>: @unchecked Sendable {
    private let observer: (SingleEvent<Element>) -> Void
    init(_ observer: @escaping (SingleEvent<Element>) -> Void) { self.observer = observer }
    func send(_ event: SingleEvent<Element>) { observer(event) }
}

/// RxMoya's operators on a `Single<Response>`.
extension PrimitiveSequence where Trait == SingleTrait, Element == Response {
    func filterSuccessfulStatusCodes() -> Single<Response> {
        map { try $0.filterSuccessfulStatusCodes() }
    }

    func filter<R: RangeExpression<Int>>(statusCodes: R) -> Single<Response> {
        map { try $0.filter(statusCodes: statusCodes) }
    }

    func mapJSON(failsOnEmptyData: Bool = true) -> Single<Any> {
        map { try $0.mapJSON(failsOnEmptyData: failsOnEmptyData) }
    }

    func mapString(atKeyPath keyPath: String? = nil) -> Single<String> {
        map { try $0.mapString(atKeyPath: keyPath) }
    }

    func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> Single<D> {
        map { try $0.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData) }
    }
}

// Resilience.md, sample 4
extension GitHub {
    var resilience: ResiliencePolicy? {
        switch self {
        case .zen: ResiliencePolicy.standard.scoped(.group("search"))   // say, a search endpoint
        case .user: nil                                                  // the provider's policy
        }
    }
}

// Resilience.md, sample 5
extension Downloads {
    var resilience: ResiliencePolicy? {
        ResiliencePolicy(
            concurrencyLimit: ConcurrencyLimit(maximum: 4, queueLimit: 32, queueTimeout: 60),
            serverBackOff: ServerBackOff(maximumWait: 0))
    }
}
