/// What the AsyncHTTPClient transport refuses to do. An open set, which later versions extend:
/// compare with `==`, or `switch` with a `default`.
public struct AsyncHTTPClientTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) {
        self.name = name
    }

    /// The `HTTPClient` followed a redirect itself, so Courier's redirect rules (credentials never
    /// cross origins, the redirect policy) could not apply. Make the client with
    /// `AsyncHTTPClientTransport.configuration(_:)`.
    public static let clientFollowedRedirect = AsyncHTTPClientTransportError("clientFollowedRedirect")

    /// The `HTTPClient` traces its own requests (`configuration.tracing.tracer`) and the request
    /// already carries a trace context (Courier's `TracingPlugin` injected it): the engine would add
    /// a second one, and a second client span. Make the client with
    /// `AsyncHTTPClientTransport.configuration(_:)`, or set `configuration.tracing.tracer = nil`.
    public static let clientTracesRequests = AsyncHTTPClientTransportError("clientTracesRequests")

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch self {
        case .clientFollowedRedirect:
            "The HTTPClient followed a redirect itself, bypassing Courier's redirect rules: make it with "
                + "AsyncHTTPClientTransport.configuration(_:) (redirectConfiguration: .disallow)."
        case .clientTracesRequests:
            "The HTTPClient traces its own requests, and this request already carries a trace context: it would go "
                + "out with two, and two client spans. Make the client with AsyncHTTPClientTransport.configuration(_:) "
                + "(configuration.tracing.tracer = nil) and let Courier's TracingPlugin trace."
        default: name
        }
    }
}
