import Courier
import Foundation

/// The notes service's API, declared the way an app declares its API: one case per endpoint.
///
/// Point it at a server with ``NotesService`` (which also signs requests and refreshes tokens).
/// `Codable`, so that its writes can wait in an outbox (`provider.outbox(named:in:)`).
public enum NotesAPI: TargetType, Codable {
    /// Signs in; answers a ``TokenPair``.
    case login(username: String, password: String)
    /// Trades a refresh token for a new ``TokenPair``.
    case refresh(refreshToken: String)
    /// Lists notes, a page at a time; needs a token.
    case notes(page: Int, perPage: Int)
    /// Creates a note; answers the created ``Note``; needs a token.
    case create(NewNote)
    /// The service's status; it may be briefly unavailable (503).
    case status
    /// Attaches a file to a note, as a multipart upload; needs a token.
    case attach(noteID: Int, file: URL)
    /// Downloads a file to `destination`; needs a token.
    case download(name: String, destination: URL)
    /// Asks the assistant about the notes; the answer streams back as Server-Sent Events, a token
    /// per event, ended by `data: [DONE]`; needs a token.
    case assistant(prompt: String)
    /// Notes as they change, over a WebSocket (`provider.webSocket(.live)`): send
    /// `{"subscribe":"notes"}`, then each change arrives as a `Note`; needs a token.
    case live

    /// Where the service lives in production; ``NotesService`` can point requests elsewhere.
    public var baseURL: URL { URL(string: "https://notes.example.com/api")! }

    /// The endpoint's path.
    public var path: String {
        switch self {
        case .login: "/auth/login"
        case .refresh: "/auth/refresh"
        case .notes, .create: "/notes"
        case .status: "/status"
        case .attach(let noteID, _): "/notes/\(noteID)/attachments"
        case .download(let name, _): "/files/\(name)"
        case .assistant: "/assistant"
        case .live: "/live"
        }
    }

    /// The HTTP method.
    public var method: HTTPMethod {
        switch self {
        case .login, .refresh, .create, .attach, .assistant: .post
        case .notes, .status, .download, .live: .get
        }
    }

    /// Parameters and bodies.
    public var task: HTTPTask {
        switch self {
        case .login(let username, let password):
            .requestJSONEncodable(Credentials(username: username, password: password))
        case .refresh(let refreshToken):
            .requestJSONEncodable(["refresh_token": refreshToken])
        case .notes(let page, let perPage):
            .requestParameters(parameters: ["page": page, "per_page": perPage], encoding: URLEncoding.queryString)
        case .create(let note):
            .requestJSONEncodable(note)
        case .status, .live:
            .requestPlain
        case .attach(_, let file):
            .uploadMultipartFormData(MultipartFormData(parts: [.init(content: .file(file), name: "file")]))
        case .download(_, let destination):
            .downloadDestination { _, _ in (destination, [.createIntermediateDirectories, .removePreviousFile]) }
        case .assistant(let prompt):
            .requestJSONEncodable(["prompt": prompt])
        }
    }

    /// Every request asks for JSON, but the assistant's event stream.
    public var headers: [String: String]? {
        if case .assistant = self { return ["Accept": "text/event-stream"] }
        return ["Accept": "application/json"]
    }

    /// The assistant's answer when stubbed, a token every 20 ms, so that a screen showing the
    /// answer as it arrives is testable offline.
    public var sampleStream: SampleStream? {
        guard case .assistant = self else { return nil }
        return .events(data: ["Notes ", "are ", "saved.", "[DONE]"], every: 0.02)
    }

    /// The live socket's peer when stubbed: it refuses a handshake without a token (401), and
    /// answers a subscription with two changes, then closes normally.
    public var sampleWebSocket: WebSocketScript {
        WebSocketScript(
            handshake: { request in
                let signed = request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Bearer ") == true
                return signed ? .accept() : .refuse(status: 401)
            },
            reply: { message in
                guard message == .text(#"{"subscribe":"notes"}"#) else { return [.close(.policyViolation)] }
                return [
                    .send(.text(#"{"id":7,"text":"Buy oat milk"}"#)), .send(.text(#"{"id":8,"text":"Call Bo"}"#)),
                    .close(.normalClosure, reason: "done"),
                ]
            })
    }

    /// Only 2xx answers are successes. This is what lets the authenticator see a 401 and the
    /// retrier see a 503: with the default, `.none`, they would be successes and nothing retries.
    public var validationType: ValidationType { .successCodes }

    /// Whether the endpoint needs an access token (all but signing in and refreshing).
    public var requiresToken: Bool {
        switch self {
        case .login, .refresh: false
        default: true
        }
    }
}
