import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a ``HARReplayer`` decides that a recorded entry answers a request: the method and the URL
/// by default (the query's items in any order), and as you choose the header fields, the body, or
/// a test of your own. Both sides are compared as recorded: the request is redacted first, so a
/// secret replaced in the file (a token in the query, say) still matches.
///
/// ```swift
/// var matching = HARMatching.default
/// matching.headers = ["Accept"]
/// matching.body = true
/// ```
public struct HARMatching: Sendable {
    /// Whether the methods must be equal; `true` by default.
    public var method = true
    /// Whether the URLs without their queries must be equal (scheme, host, port, path); `true`.
    public var url = true
    /// Whether the queries' items must be equal, in any order; `true` by default.
    public var query = true
    /// Whether the order of the query's items matters too; `false` by default.
    public var queryOrder = false
    /// Header fields whose values must be equal (names compared without case); none by default.
    public var headers: [String] = []
    /// Whether the bodies must be equal; `false` by default.
    public var body = false
    /// A test of your own, given the request (redacted) and the recorded one; `nil` by default.
    public var custom: (@Sendable (_ request: URLRequest, _ recorded: URLRequest) -> Bool)?

    /// The method and the URL, the query's items in any order.
    public static let `default` = HARMatching()

    /// Creates the default matching; change its properties to add rules.
    public init() {}

    /// Why `entry` does not answer `request` (the request redacted, its body read); empty when it
    /// does.
    func differences(_ request: URLRequest, body: Data?, from entry: HAR.Entry) -> [String] {
        var differences: [String] = []
        let recorded = entry.request
        let method = request.httpMethod ?? "GET"
        if self.method, method != recorded.method { differences.append("method \(recorded.method)") }
        let asked = URLComponents(string: request.url?.absoluteString ?? "")
        let kept = URLComponents(string: recorded.url)
        if url, Self.base(of: asked) != Self.base(of: kept) { differences.append("URL \(recorded.url)") }
        if query, !Self.sameQuery(asked, kept, ordered: queryOrder) {
            differences.append("query \(kept?.percentEncodedQuery ?? "(none)")")
        }
        for name in headers {
            let value = recorded.headers.first { $0.name.lowercased() == name.lowercased() }?.value
            if request.value(forHTTPHeaderField: name) != value { differences.append("\(name): \(value ?? "(none)")") }
        }
        if self.body, (body ?? Data()) != entry.requestBody {
            differences.append("body (\(entry.requestBody.count) bytes)")
        }
        if let custom, !custom(request, Self.urlRequest(of: entry)) { differences.append("the custom test") }
        return differences
    }

    /// The URL without its query and fragment.
    private static func base(of components: URLComponents?) -> String? {
        guard var components else { return nil }
        components.query = nil
        components.fragment = nil
        return components.string
    }

    private static func sameQuery(_ lhs: URLComponents?, _ rhs: URLComponents?, ordered: Bool) -> Bool {
        let left = (lhs?.percentEncodedQueryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }
        let right = (rhs?.percentEncodedQueryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }
        return ordered ? left == right : left.sorted() == right.sorted()
    }

    /// The recorded request as a `URLRequest`, for a custom test.
    static func urlRequest(of entry: HAR.Entry) -> URLRequest {
        var request = URLRequest(url: URL(string: entry.request.url) ?? URL(fileURLWithPath: "/"))
        request.httpMethod = entry.request.method
        for field in entry.request.headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        let body = entry.requestBody
        if !body.isEmpty { request.httpBody = body }
        return request
    }
}
