import CourierAsyncHTTPClient
import Foundation
import NIOSSL
import OpenAPIRuntime

// What the add-ons' README snippets take from their reader: an API, a provider, a generated
// OpenAPI client, TLS settings. Nothing here is imported by the snippets' files.

/// A GitHub-like API.
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
}

/// An upstream API.
typealias Upstream = GitHub

/// A GitHub user.
struct User: Decodable {
    let login: String
}

/// The reader's provider.
let provider = Provider<GitHub>()

/// The reader's TLS settings.
let tls = TLSConfiguration.makeClientConfiguration()

/// Where the generated client's server is.
let serverURL = URL(string: "https://api.example.com")!

/// A generated OpenAPI client, as swift-openapi-generator makes one.
struct Client {
    let serverURL: URL
    let transport: any ClientTransport
}
