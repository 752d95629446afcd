import CourierAsyncHTTPClient
import Foundation

/// The upstream JSON API the gateway calls: an order service behind a client-credentials token.
public enum UpstreamAPI: TargetType {
    /// One order.
    case order(id: Int)
    /// A token for the gateway's client credentials.
    case token(clientID: String, secret: String)

    /// A placeholder: the provider points every request at the configured upstream
    /// (`Endpoint.replacing(origin:)`), as a service reads its upstream from its configuration.
    public var baseURL: URL { URL(string: "http://upstream.invalid")! }

    /// The order's or the token's path.
    public var path: String {
        switch self {
        case .order(let id): "/orders/\(id)"
        case .token: "/token"
        }
    }

    /// `GET` for an order, `POST` for a token.
    public var method: HTTPMethod {
        switch self {
        case .order: .get
        case .token: .post
        }
    }

    /// The token request's form; nothing for an order.
    public var task: HTTPTask {
        switch self {
        case .order: .requestPlain
        case .token(let clientID, let secret):
            .requestParameters(
                parameters: ["grant_type": "client_credentials", "client_id": clientID, "client_secret": secret],
                encoding: URLEncoding.httpBody)
        }
    }

    /// JSON, please.
    public var headers: [String: String]? { ["Accept": "application/json"] }

    /// 2xx only: a 401 reaches the authenticator, a 503 the retry policy.
    public var validationType: ValidationType { .successCodes }

    /// Each attempt: at most a second.
    public var timeoutInterval: TimeInterval? { 1 }

    /// The whole call, retries and a sign-in included: at most three seconds.
    public var totalTimeoutInterval: TimeInterval? { 3 }
}

/// The observability plugins label requests by case name: given here, so that they never read it
/// by reflection on every request.
extension UpstreamAPI: NamedTarget {
    /// The case's name, without its associated values.
    public var caseName: String {
        switch self {
        case .order: "order"
        case .token: "token"
        }
    }
}

/// An order, as the upstream answers and the gateway returns it.
public struct Order: Codable, Sendable, Equatable {
    /// Its identifier.
    public let id: Int
    /// Its total, in cents.
    public let total: Int

    /// Creates an order.
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - total: Its total, in cents.
    public init(id: Int, total: Int) {
        self.id = id
        self.total = total
    }
}
