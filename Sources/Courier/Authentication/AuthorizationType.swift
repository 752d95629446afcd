/// The scheme of an `Authorization` header.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
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
