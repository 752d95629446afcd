/// What the AsyncHTTPClient transport refuses to do.
public enum AsyncHTTPClientTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `HTTPClient` followed a redirect itself, so Courier's redirect rules (credentials never
    /// cross origins, the redirect policy) could not apply. Make the client with
    /// `AsyncHTTPClientTransport.configuration(_:)`.
    case clientFollowedRedirect

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch self {
        case .clientFollowedRedirect:
            "The HTTPClient followed a redirect itself, bypassing Courier's redirect rules: make it with "
                + "AsyncHTTPClientTransport.configuration(_:) (redirectConfiguration: .disallow)."
        }
    }
}
