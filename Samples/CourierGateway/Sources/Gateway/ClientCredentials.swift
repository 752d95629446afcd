import CourierAsyncHTTPClient
import Foundation

/// A bearer token with its expiry, as the upstream issues it.
public struct ServiceToken: AuthenticationCredential, Decodable {
    /// The token.
    public let access: String
    /// When it expires.
    public let expiresAt: Date

    /// The expiry, for proactive refresh.
    public var expiration: Date? { expiresAt }
    /// Refresh two seconds ahead (the demo's tokens live ten).
    public var refreshLeeway: TimeInterval { 2 }

    private enum CodingKeys: String, CodingKey {
        case access = "access_token"
        case expiresIn = "expires_in"
    }

    /// Decodes `access_token` and `expires_in` (seconds).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        access = try container.decode(String.self, forKey: .access)
        expiresAt = Date().addingTimeInterval(try container.decode(TimeInterval.self, forKey: .expiresIn))
    }
}

/// Signs requests with the service's token, and obtains one (on the first request, and after an
/// expiry or a 401) with the service's client credentials: the service starts with no token.
public struct ClientCredentials: Authenticator {
    /// The service's client ID.
    public let clientID: String
    /// The service's client secret.
    public let secret: String

    /// Creates the authenticator.
    /// - Parameters:
    ///   - clientID: The client ID.
    ///   - secret: The client secret.
    public init(clientID: String, secret: String) {
        self.clientID = clientID
        self.secret = secret
    }

    /// `Authorization: Bearer <token>`.
    public func apply(_ credential: ServiceToken, to request: URLRequest) -> URLRequest {
        var request = request
        request.setHeaderField("Bearer \(credential.access)", named: "Authorization")
        return request
    }

    /// The first token: the interceptor calls this once, however many requests wait.
    public func signIn(context: RefreshContext) async throws -> ServiceToken? {
        try await context.send(UpstreamAPI.token(clientID: clientID, secret: secret)).map(ServiceToken.self)
    }

    /// A new token: client credentials are asked again.
    public func refresh(_ credential: ServiceToken, context: RefreshContext) async throws -> ServiceToken {
        try await context.send(UpstreamAPI.token(clientID: clientID, secret: secret)).map(ServiceToken.self)
    }

    /// The token endpoint itself needs no token.
    public func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
        guard case .token? = target as? UpstreamAPI else { return true }
        return false
    }
}
