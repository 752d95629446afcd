import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds HTTP Basic authentication (`Authorization: Basic …`) from a user name and password,
/// up front, without waiting for a challenge.
///
/// URLSession's challenge path is not used: on Linux a 401 with `WWW-Authenticate: Basic` and no
/// stored credential never completes.
/// ```swift
/// let provider = Provider<MyAPI>(plugins: [CredentialsPlugin { _ in URLCredential(user: "ann", password: "s3cret", persistence: .none) }])
/// ```
public struct CredentialsPlugin: PluginType {
    private let credentialsClosure: @Sendable (any TargetType) async -> URLCredential?

    /// Creates the plugin.
    /// - Parameter credentialsClosure: Returns the credential for a target (its
    ///   ``TargetType/underlyingTarget``: a ``MultiTarget`` is unwrapped first), or `nil` for none.
    public init(credentialsClosure: @escaping @Sendable (any TargetType) async -> URLCredential?) {
        self.credentialsClosure = credentialsClosure
    }

    /// Sets `Authorization: Basic base64(user:password)` when the closure returns a credential
    /// with a user and a password.
    /// - Parameters:
    ///   - request: The request so far.
    ///   - target: The target being requested.
    /// - Returns: The signed request, or `request` unchanged.
    public func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
        guard let credential = await credentialsClosure(target.underlyingTarget), let user = credential.user,
            let password = credential.password
        else { return request }
        var request = request
        let token = Data("\(user):\(password)".utf8).base64EncodedString()
        request.setHeaderField("Basic \(token)", named: "Authorization")
        return request
    }
}
