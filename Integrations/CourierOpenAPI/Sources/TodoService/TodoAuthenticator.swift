import Courier
import CourierOpenAPI
import Foundation
import TodoAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The to-do service's token pair.
package struct TodoToken: AuthenticationCredential {
    /// The bearer token.
    package let accessToken: String
    /// The token that buys a new pair.
    package let refreshToken: String

    /// A pair.
    package init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    /// A pair whose access token the service no longer accepts (generation 0) and whose refresh
    /// token is still good.
    package static let expired = TodoToken(
        accessToken: TodoServer.accessToken(0), refreshToken: TodoServer.refreshToken(1))
    /// The pair the service accepts until its first refresh.
    package static let valid = TodoToken(
        accessToken: TodoServer.accessToken(1), refreshToken: TodoServer.refreshToken(1))
}

/// Signs the API's own requests with the bearer token and refreshes it with the generated
/// client's `refreshToken` operation: what teams write by hand as middleware.
package struct TodoAuthenticator: Authenticator {
    /// A client for the refresh call, without this authenticator.
    package let refreshClient: Client
    /// The only origin the token is for.
    package let serverURL: URL

    /// An authenticator for the API at `serverURL`, refreshing with `refreshClient`.
    package init(refreshClient: Client, serverURL: URL) {
        self.refreshClient = refreshClient
        self.serverURL = serverURL
    }

    /// Sets the bearer token.
    package func apply(_ credential: TodoToken, to request: URLRequest) -> URLRequest {
        var signed = request
        signed.setHeaderField("Bearer \(credential.accessToken)", named: "Authorization")
        return signed
    }

    /// Buys a new pair with the generated client's `refreshToken` operation.
    package func refresh(_ credential: TodoToken) async throws -> TodoToken {
        let pair = try await refreshClient.refreshToken(body: .json(.init(refreshToken: credential.refreshToken)))
            .ok.body.json
        return TodoToken(accessToken: pair.accessToken, refreshToken: pair.refreshToken)
    }

    /// The token goes to the API's origin only, and never with the refresh call itself.
    package func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool {
        guard (target as? OpenAPIOperation)?.operationID != "refreshToken", let url = request.url else {
            return false
        }
        return url.scheme == serverURL.scheme && url.host == serverURL.host && url.port == serverURL.port
    }
}
