/// Why Courier refused to send a request it was asked to send.
public enum RequestValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The method (`GET` or `HEAD`) must not carry a body, yet the request has one.
    case bodyNotAllowed(HTTPMethod)
    /// The request has no URL.
    case missingURL
    /// A multipart body has no parts.
    case emptyMultipartFormData

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch self {
        case .bodyNotAllowed(let method):
            "A \(method) request must not have a body: use URL parameters, or another method."
        case .missingURL:
            "The request has no URL."
        case .emptyMultipartFormData:
            "The multipart form has no parts: append at least one."
        }
    }
}
