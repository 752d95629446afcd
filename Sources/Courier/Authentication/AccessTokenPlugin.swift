import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A target whose cases say which need an access token, and with which scheme.
///
/// ```swift
/// extension MyAPI: AccessTokenAuthorizable {
///     var authorizationType: AuthorizationType? {
///         switch self {
///         case .login: nil
///         default: .bearer
///         }
///     }
/// }
/// ```
public protocol AccessTokenAuthorizable {
    /// The scheme to sign this target's requests with, or `nil` for none.
    var authorizationType: AuthorizationType? { get }
}

/// Adds `Authorization: <scheme> <token>` to the requests of targets that ask for it through
/// ``AccessTokenAuthorizable``.
///
/// The token is fetched for every attempt and may be fetched asynchronously (from a keychain
/// actor, say). For tokens that expire and must be refreshed, use ``AuthenticationInterceptor``.
/// ```swift
/// let provider = Provider<MyAPI>(plugins: [AccessTokenPlugin { _ in try await tokens.accessToken() }])
/// ```
public struct AccessTokenPlugin: PluginType {
    private let tokenClosure: @Sendable (any TargetType) async throws -> String

    /// Creates the plugin.
    /// - Parameter tokenClosure: Returns the token for a target (its
    ///   ``TargetType/underlyingTarget``: a ``MultiTarget`` is unwrapped first); a thrown error
    ///   fails the attempt with ``CourierError/preparation(_:request:)``.
    public init(tokenClosure: @escaping @Sendable (any TargetType) async throws -> String) {
        self.tokenClosure = tokenClosure
    }

    /// Sets the `Authorization` header when the target asks for a scheme.
    /// - Parameters:
    ///   - request: The request so far.
    ///   - target: The target being requested.
    /// - Returns: The signed request, or `request` unchanged.
    /// - Throws: The token closure's error.
    public func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
        let target = target.underlyingTarget
        guard let type = (target as? any AccessTokenAuthorizable)?.authorizationType else { return request }
        let token = try await tokenClosure(target)
        var request = request
        request.setHeaderField("\(type.value) \(token)", named: "Authorization")
        return request
    }
}
