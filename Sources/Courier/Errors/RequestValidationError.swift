/// Why Courier refused to send a request it was asked to send.
///
/// The descriptions name the header and the problem, never a header's value (it may be a token),
/// and show any control character in a name escaped, so that a log line stays one line.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum RequestValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The method (`GET` or `HEAD`) must not carry a body, yet the request has one.
    case bodyNotAllowed(HTTPMethod)
    /// The request has no URL.
    case missingURL
    /// A multipart body has no parts.
    case emptyMultipartFormData
    /// The method is not an RFC 9110 token (it is empty, or holds a space, a line break or another
    /// character a method cannot have). See ``HeaderFieldRules``.
    case invalidMethod(HTTPMethod)
    /// The header name is not an RFC 9110 token (it is empty, or holds a space, a colon, a line
    /// break or another character a name cannot have). See ``HeaderFieldRules``.
    case invalidHeaderName(String)
    /// The value of the header `name` holds a character a header value must not have (the value
    /// itself is not kept). See ``HeaderFieldRules``.
    case invalidHeaderValue(name: String, problem: HeaderValueProblem)
    /// A time interval (`name`: `timeoutInterval`, `totalTimeoutInterval`, a stub's delay) is NaN,
    /// negative or zero. Use a positive number of seconds; `nil` or `.infinity` mean no limit.
    case invalidTimeInterval(name: String, value: Double)
    /// The request asks for options (`URLRequest.cachePolicy`, say) that the transport, named by
    /// its type, does not declare in ``Transport/capabilities``: sending it would ignore them.
    case unsupportedOptions(TransportCapabilities, transport: String)
    /// A target of this type was handed to a provider (named by its type) that cannot send it,
    /// through ``RefreshContext/send(_:)``: send a target of the provider's own type, or use a
    /// `Provider<MultiTarget>`.
    case unexpectedTarget(String, provider: String)

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch self {
        case .bodyNotAllowed(let method):
            "A \(method) request must not have a body: use URL parameters, or another method."
        case .missingURL:
            "The request has no URL."
        case .emptyMultipartFormData:
            "The multipart form has no parts: append at least one."
        case .invalidMethod(let method):
            "The method \(Self.escaped(method.rawValue)) is not a valid HTTP method token; the request was not sent."
        case .invalidHeaderName(let name):
            "The header name \(Self.escaped(name)) is not a valid HTTP token; the request was not sent."
        case .invalidHeaderValue(let name, let problem):
            "The value of the header \(Self.escaped(name)) contains \(problem); the request was not sent."
        case .invalidTimeInterval(let name, let value):
            "\(name) is \(value): use a positive number of seconds, or nil (or .infinity) for no limit."
        case .unsupportedOptions(let options, let transport) where options.contains(.webSocket):
            "The target opens a WebSocket, which the transport \(transport) does not (URLSessionTransport opens none: on Linux its libcurl has no WebSocket support, and Courier does not drive URLSessionWebSocketTask on Apple platforms yet); nothing was sent. AsyncHTTPClientTransport (CourierAsyncHTTPClient) can."
        case .unsupportedOptions(let options, let transport):
            "The request asks for \(options), which the transport \(transport) does not honour; the request was not sent."
        case .unexpectedTarget(let target, let provider):
            provider == "none"
                ? "A \(target) target cannot be sent: this context has no provider."
                : "A Provider<\(provider)> cannot send a \(target) target: use one of its own targets, or a Provider<MultiTarget>."
        }
    }

    /// `text` quoted, with control characters, quotes and backslashes escaped.
    private static func escaped(_ text: String) -> String {
        "\"" + Redaction.escaped(text) + "\""
    }
}
