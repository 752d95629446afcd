import Foundation

/// Why a generated call could not go through Courier's pipeline; the generated client receives it
/// inside its `ClientError`, as the `underlyingError`.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see Courier's Source Stability article).
public enum OpenAPIBridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server URL and the path the generated client rendered make no URL, or the path names
    /// a host of its own.
    case invalidRequestURL(serverURL: URL, path: String)
    /// The method of an attempt, as the interceptor left it, is not an HTTP method token.
    case invalidMethod(String)
    /// A ``CourierMiddleware``'s transport was called outside the middleware (it only carries
    /// requests from ``CourierMiddleware/intercept(_:body:baseURL:operationID:next:)``).
    case notInsideMiddleware

    /// A description without the URL's query or credentials.
    public var description: String {
        switch self {
        case .invalidRequestURL(let serverURL, _):
            "The server URL \(serverURL.host ?? "(no host)") and the generated client's path make no request URL"
        case .invalidMethod(let method):
            // Escaped: the text may hold a line break, which must not start a line of a log.
            "The method \(String(reflecting: String(method.prefix(32)))) is not an HTTP method token"
        case .notInsideMiddleware:
            "The middleware's transport was called outside CourierMiddleware.intercept"
        }
    }
}
