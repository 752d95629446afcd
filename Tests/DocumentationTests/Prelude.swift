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
