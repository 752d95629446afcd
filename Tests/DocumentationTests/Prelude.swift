import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Stand-ins for the types a reader of the documentation brings: the samples in
// DocumentationSamples.swift (generated from the README and the DocC articles) compile against
// them.

/// The API most samples use.
enum GitHub: TargetType {
    case user(String)
    case zen
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
    var sampleData: Data { Data(#"{"login":"octocat","id":1}"#.utf8) }
}

/// A paginated API: a first page, and the pages its `Link` fields name.
enum Repositories: TargetType {
    case list(owner: String)
    case page(URL)
    var baseURL: URL {
        if case .page(let url) = self { return url }
        return URL(string: "https://api.github.com")!
    }
    var path: String {
        switch self {
        case .list(let owner): "/users/\(owner)/repos"
        case .page: ""
        }
    }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

/// A decoded user.
struct User: Decodable {
    let login: String
    let id: Int
}

/// A plugin of the reader's.
struct MyLogger: PluginType {}

/// An interceptor of the reader's.
struct MyAuth: RequestInterceptor {}

/// A credential of the reader's.
struct MyTokens: AuthenticationCredential {
    let accessToken: String
    var requiresRefresh: Bool { false }
}

/// The reader's stored credential.
let savedTokens = MyTokens(accessToken: "token")

/// An authenticator of the reader's.
struct MyAuthenticator: Authenticator {
    func apply(_ credential: MyTokens, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        return request
    }

    func refresh(_ credential: MyTokens) async throws -> MyTokens { credential }
}

/// A download target.
enum Downloads: TargetType {
    case report(to: URL)
    var baseURL: URL { URL(string: "https://files.example.com")! }
    var path: String { "/report.pdf" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .report(let destination): .downloadDestination { _, _ in (destination, [.removePreviousFile]) }
        }
    }
    var headers: [String: String]? { nil }
}

// Stand-ins for what the examples of the symbol documentation comments use
// (SymbolDocumentationSamples.swift).

/// An API with a sign-in call.
enum MyAPI: TargetType {
    case login
    case profile
    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { self == .login ? "/login" : "/profile" }
    var method: HTTPMethod { self == .login ? .post : .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// An API with a refresh call.
enum API: TargetType {
    case refresh(String)
    case me
    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/token" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// Where the reader keeps tokens.
struct TokenStore: Sendable {
    func current() async throws -> String { "token" }
    func accessToken() async throws -> String { "token" }
}

/// The reader's token store.
let tokens = TokenStore()

/// A refreshable credential.
struct OAuthCredential: AuthenticationCredential, Decodable {
    let accessToken: String
    let refreshToken: String
    var requiresRefresh: Bool { false }
}

/// The reader's stored credential.
let stored = OAuthCredential(accessToken: "a", refreshToken: "r")

/// A token as a refresh call returns it.
struct Token: Decodable {
    let refreshToken: String
}

/// The provider the authenticator refreshes through.
let authProvider = Provider<API>()

/// An authenticator that refreshes through its own provider.
struct OAuthAuthenticator: Authenticator {
    let api: Provider<API>
    func apply(_ credential: OAuthCredential, to request: URLRequest) -> URLRequest { request }
    func refresh(_ credential: OAuthCredential) async throws -> OAuthCredential {
        try await api.request(.refresh(credential.refreshToken)).map(OAuthCredential.self)
    }
}

/// A request signature.
func signature() -> String { "signature" }

/// The provider most examples use.
let provider = Provider<GitHub>()

/// A response to map.
let sampleResponse = Response(statusCode: 200, data: Data(#"{"login":"octocat","id":1,"data":{"names":[]}}"#.utf8))

/// A logger of the reader's.
struct ExampleLogger: Sendable {
    func info(_ message: String) {}
}

/// The reader's logger.
let logger = ExampleLogger()

/// A histogram of the reader's metrics system.
struct ExampleHistogram: Sendable {
    func record(_ duration: TimeInterval, path: String) {}
}

/// A counter of the reader's metrics system.
struct ExampleCounter: Sendable {
    func increment() {}
}

/// The reader's metrics.
let histogram = ExampleHistogram()
/// The reader's failure counter.
let failures = ExampleCounter()

/// A network activity indicator on the main actor.
@MainActor final class ActivityIndicator {
    func update(_ change: NetworkActivityChangeType) {}
}

/// The reader's indicator.
@MainActor let indicator = ActivityIndicator()

/// A download API.
enum Files: TargetType {
    case download(URL)
    var baseURL: URL { URL(string: "https://files.example.com")! }
    var path: String { "/report.pdf" }
    var method: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .download(let destination): .downloadDestination { _, _ in (destination, [.removePreviousFile]) }
        }
    }
    var headers: [String: String]? { nil }
}

/// A streaming API.
enum Streams: TargetType {
    case logs(follow: Bool)
    case notifications
    case completion(String)
    case chat(String)
    case feed
    case export
    var baseURL: URL { URL(string: "https://stream.example.com")! }
    var path: String { "/stream" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// A prompt for a streaming API.
let prompt = "Hello"

/// A streamed JSON event.
struct Delta: Decodable {
    let text: String
}

/// A service status API.
enum Status: TargetType {
    case current
    var baseURL: URL { URL(string: "https://status.example.com")! }
    var path: String { "/current" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// Sends a chunk somewhere.
func send(_ chunk: Data) {}

/// Consumes a chunk.
func consume(_ chunk: Data) {}

/// Keeps a line of an export.
func store(_ line: String) {}

/// A photo to upload.
let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")

/// A report to upload.
let report = Data("report".utf8)

/// A one-shot body, as an OpenAPI client hands over.
var openAPIBody: InputStream { InputStream(data: Data()) }

/// A source of chunks an engine reads.
struct ExampleChunkSource: Sendable {
    func next() async throws -> Data? { nil }
}

/// An engine's transport.
struct MyEngineTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await URLSessionTransport.shared.send(request)
    }
}

/// A transport of the reader's.
typealias MyTransport = MyEngineTransport

// RxSwift 6's shapes, as much of them as the migration guide's adapter uses: RxSwift is not built
// on Courier's CI, and these reproduce what Swift 6 says about the adapter (a `SingleObserver` is a
// plain closure, not `Sendable`).
protocol Disposable { func dispose() }
struct AnonymousDisposable: Disposable {
    let action: () -> Void
    func dispose() { action() }
}
enum Disposables {
    static func create(with dispose: @escaping () -> Void) -> any Disposable { AnonymousDisposable(action: dispose) }
}
enum SingleTrait {}
typealias SingleEvent<Element> = Result<Element, any Error>
struct PrimitiveSequence<Trait, Element> {
    let subscribeHandler: (@escaping (SingleEvent<Element>) -> Void) -> any Disposable
}
typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>
extension PrimitiveSequence where Trait == SingleTrait {
    typealias SingleObserver = (SingleEvent<Element>) -> Void
    static func create(subscribe: @escaping (@escaping SingleObserver) -> any Disposable) -> Single<Element> {
        Single(subscribeHandler: subscribe)
    }
    func subscribe(_ observer: @escaping SingleObserver) -> any Disposable { subscribeHandler(observer) }
    func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        .create { observer in
            subscribe { event in observer(event.flatMap { element in Swift.Result { try transform(element) } }) }
        }
    }
}
struct Reactive<Base> {
    let base: Base
    init(_ base: Base) { self.base = base }
}

/// A bank's API, for the trust policy samples.
enum Bank: TargetType {
    case accounts
    var baseURL: URL { URL(string: "https://api.bank.example")! }
    var path: String { "/accounts" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// Large files to download, for the resumable download samples.
enum Datasets: TargetType {
    case archive
    var baseURL: URL { URL(string: "https://downloads.example.com")! }
    var path: String { "/dataset.zip" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

let datasets = Provider<Datasets>()
let downloads = URL(fileURLWithPath: "/tmp/Downloads")
/// Where HAR fixtures live, for the samples of CourierTesting's recorder, replayer and cassette.
let fixtures = URL(fileURLWithPath: "/tmp/Fixtures", isDirectory: true)

/// Large files to upload, for the resumable upload samples.
enum Media: TargetType {
    case video
    var baseURL: URL { URL(string: "https://uploads.example.com")! }
    var path: String { "/videos" }
    var method: HTTPMethod { .post }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

let media = Provider<Media>()

/// A chat API whose rooms open as WebSockets.
enum Chat: TargetType {
    case chat(room: Int)
    case subscriptions
    var baseURL: URL { URL(string: "wss://chat.example")! }
    var path: String {
        switch self {
        case .chat(let room): "/rooms/\(room)"
        case .subscriptions: "/graphql"
        }
    }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// A chat message sent as JSON.
struct ChatMessage: Encodable {
    let text: String
}

/// A socket client of one's own, as the transport article's engine uses one.
@Sendable func openSocket(
    _ request: URLRequest, _ upgrade: WebSocketUpgrade
) async throws -> (TransportResponse, (any WebSocketConnection)?) {
    (TransportResponse(statusCode: 101, data: Data()), nil)
}

/// Writes an app sends through an outbox: `Codable`, as an outbox's targets are.
enum Posts: TargetType, Codable {
    case createPost(text: String)
    case like(postID: Int)
    var baseURL: URL { URL(string: "https://posts.example")! }
    var path: String {
        switch self {
        case .createPost: "/posts"
        case .like(let id): "/posts/\(id)/likes"
        }
    }
    var method: HTTPMethod { .post }
    var task: HTTPTask {
        switch self {
        case .createPost(let text): .requestJSONEncodable(["text": text])
        case .like: .requestPlain
        }
    }
    var headers: [String: String]? { nil }
}
