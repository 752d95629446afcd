/// Which HTTP status codes a target accepts as success.
///
/// A response whose status code is not accepted fails with ``CourierError/statusCode(_:)``,
/// which is what lets a ``RequestRetrier`` see a 401 or a 503 and retry it. With ``none``
/// (the default, as in Moya) every status code is a success and retriers never run for it.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum ValidationType: Sendable, Hashable {
    /// Every status code is accepted.
    case none
    /// 2xx status codes are accepted.
    case successCodes
    /// 2xx and 3xx status codes are accepted.
    case successAndRedirectCodes
    /// Exactly the given status codes are accepted; an empty list accepts every code, as in Moya.
    case customCodes([Int])

    /// The accepted status codes, or an empty list when every code is accepted.
    public var statusCodes: [Int] {
        switch self {
        case .none: []
        case .successCodes: Array(200..<300)
        case .successAndRedirectCodes: Array(200..<400)
        case .customCodes(let codes): codes
        }
    }

    /// Whether a response with `statusCode` passes this validation.
    /// - Parameter statusCode: The response's HTTP status code.
    /// - Returns: `true` when the code is accepted.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(statusCode)
        case .successAndRedirectCodes: (200..<400).contains(statusCode)
        case .customCodes(let codes): codes.isEmpty || codes.contains(statusCode)
        }
    }
}
