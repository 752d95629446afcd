import Foundation

/// A request as the ``LoopbackServer`` received it.
public struct ServerRequest: Sendable, CustomStringConvertible {
    /// The method, for example `GET`.
    public let method: String
    /// The request target: the path with its query, for example `/users?page=2`.
    public let target: String
    /// The headers in the order received, with their names as sent.
    public let headers: [(name: String, value: String)]
    /// The body (de-chunked when it was sent chunked).
    public let body: Data

    /// The path without the query.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The query string without the `?`, or `nil` when there is none.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// The value of a header, looked up case-insensitively; repeated headers are joined with `, `.
    /// - Parameter name: The header name.
    /// - Returns: Its value, or `nil` when absent.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// For example `POST /items (12 bytes)`.
    public var description: String {
        "\(method) \(target) (\(body.count) bytes)"
    }
}
