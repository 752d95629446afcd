import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What makes two requests the same request: method, URL, headers (names compared without
/// case) and body.
///
/// `URLRequest`'s own `==` and hash cannot be used for that: on Linux they ignore the headers
/// and the body, so two `POST`s with different bodies would compare equal.
struct RequestKey: Hashable, Sendable {
    let method: String
    let url: URL?
    let headers: [String: String]
    let body: Data?

    init(_ request: URLRequest) {
        method = request.httpMethod ?? "GET"
        url = request.url
        headers = Dictionary(
            (request.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) },
            uniquingKeysWith: { first, _ in first })
        body = request.httpBody
    }
}
