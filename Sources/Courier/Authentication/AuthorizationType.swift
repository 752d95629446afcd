/// The scheme of an `Authorization` header.
public enum AuthorizationType: Sendable, Hashable {
    /// `Basic <token>`.
    case basic
    /// `Bearer <token>`.
    case bearer
    /// `<scheme> <token>`, for another scheme.
    case custom(String)

    /// The scheme name, as written before the token.
    public var value: String {
        switch self {
        case .basic: "Basic"
        case .bearer: "Bearer"
        case .custom(let scheme): scheme
        }
    }
}
