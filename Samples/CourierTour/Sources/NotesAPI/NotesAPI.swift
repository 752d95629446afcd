import Courier
import Foundation

/// A small notes service, declared the way an app declares its API: one case per endpoint.
public enum NotesAPI: TargetType {
    /// Lists the notes, a page at a time.
    case list(page: Int)
    /// Creates a note.
    case create(NewNote)
    /// Reads the service's status, which may be briefly unavailable.
    case status

    /// Where the service lives in production; ``NotesService/makeProvider(baseURL:plugins:interceptor:)``
    /// points the requests somewhere else, such as the tour's local server.
    public var baseURL: URL { URL(string: "https://notes.example.com/api")! }

    /// The endpoint's path.
    public var path: String {
        switch self {
        case .list, .create: "/notes"
        case .status: "/status"
        }
    }

    /// The HTTP method.
    public var method: HTTPMethod {
        switch self {
        case .create: .post
        default: .get
        }
    }

    /// Parameters and body.
    public var task: HTTPTask {
        switch self {
        case .list(let page): .requestParameters(parameters: ["page": page], encoding: URLEncoding.queryString)
        case .create(let note): .requestJSONEncodable(note)
        case .status: .requestPlain
        }
    }

    /// Every request asks for JSON.
    public var headers: [String: String]? { ["Accept": "application/json"] }

    /// Non-2xx answers are failures, so a retrier sees them.
    public var validationType: ValidationType { .successCodes }
}

/// A note as the service returns it.
public struct Note: Codable, Equatable, Sendable {
    /// The note's identifier.
    public let id: Int
    /// The text.
    public let text: String

    /// Creates a note.
    public init(id: Int, text: String) {
        self.id = id
        self.text = text
    }
}

/// A note to create.
public struct NewNote: Codable, Equatable, Sendable {
    /// The text.
    public let text: String

    /// Creates a note to send.
    public init(text: String) {
        self.text = text
    }
}
