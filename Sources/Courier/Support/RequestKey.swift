import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes two requests the same request: method, URL, headers (names compared without
/// case) and body, whether held in the request or uploaded from a file.
///
/// `URLRequest`'s own `==` and hash cannot be used for that: on Linux they ignore the headers
/// and the body, so two `POST`s with different bodies would compare equal.
struct RequestKey: Hashable, Sendable {
    let method: String
    let url: URL?
    let headers: [String: String]
    let body: Data?
    /// The file a body is uploaded from, if it is.
    let bodyFile: URL?

    /// The HTTP methods a request may join another with (RFC 9110, 9.2.2): sending them twice
    /// has the effect of sending them once. Two `POST`s or `PATCH`es are two actions.
    static let joinableMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]

    /// The key under which the request of `task` may join an identical one in flight, or `nil`
    /// when it never joins: a method that is not idempotent, a download (two destinations cannot
    /// be compared), or a multipart or stream upload (nor can two forms' or streams' bytes).
    static func joining(_ request: URLRequest, task: HTTPTask) -> RequestKey? {
        guard joinableMethods.contains(request.httpMethod?.uppercased() ?? "GET"), task.downloadDestination == nil
        else { return nil }
        switch task.transportBody {
        case .inline: return RequestKey(request)
        case .file(let url): return RequestKey(request, bodyFile: url.standardizedFileURL)
        case .multipart, .stream: return nil
        }
    }

    init(_ request: URLRequest, bodyFile: URL? = nil) {
        method = request.httpMethod ?? "GET"
        url = request.url
        headers = Dictionary(
            (request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { first, _ in first })
        body = request.httpBody
        self.bodyFile = bodyFile
    }

    /// A request with this method, URL, headers and body, when the URL is known.
    var request: URLRequest? {
        guard let url else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }
}
