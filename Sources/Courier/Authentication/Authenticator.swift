import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A credential an ``AuthenticationInterceptor`` applies to requests, such as an OAuth token pair.
///
/// Give it an ``expiration`` and it is refreshed ahead of time, ``refreshLeeway`` (60 s) before it
/// expires; or implement ``requiresRefresh`` with a rule of your own.
/// ```swift
/// struct Tokens: AuthenticationCredential, Codable {
///     let access: String, refresh: String, expiresAt: Date
///     var expiration: Date? { expiresAt }
/// }
/// ```
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is used again. A credential that says
    /// so is refreshed before any request is sent. By default: it has an ``expiration`` that is
    /// less than ``refreshLeeway`` away; without one, never (a 401 still refreshes it).
    var requiresRefresh: Bool { get }
    /// When the credential expires, if known; `nil` by default.
    var expiration: Date? { get }
    /// How long before its ``expiration`` the credential is refreshed, in seconds; 60 by default.
    var refreshLeeway: TimeInterval { get }
}

extension AuthenticationCredential {
    /// `nil`: the expiration is unknown.
    public var expiration: Date? { nil }
    /// 60 seconds.
    public var refreshLeeway: TimeInterval { 60 }
    /// Whether ``expiration`` is less than ``refreshLeeway`` away (`false` without an expiration).
    public var requiresRefresh: Bool {
        guard let expiration else { return false }
        return expiration.timeIntervalSinceNow < refreshLeeway
    }
}

/// What an ``AuthenticationInterceptor`` needs to know about your authentication scheme: how to
/// sign a request, how to refresh a credential, and how to recognise an authentication failure.
///
/// ```swift
/// struct OAuthAuthenticator: Authenticator {
///     func apply(_ credential: OAuthCredential, to request: URLRequest) -> URLRequest {
///         var request = request
///         request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
///         return request
///     }
///     func refresh(_ credential: OAuthCredential, context: RefreshContext) async throws -> OAuthCredential {
///         try await context.send(API.refresh(credential.refreshToken)).map(OAuthCredential.self)
///     }
/// }
/// ```
/// The refresh may send its request through the provider that asked for it
/// (``RefreshContext/send(_:)``: the same plugins and logs, no reference to keep), or through any
/// provider it holds. A request sent during a refresh is never signed by the interceptor running
/// it and never waits for it, so a refresh cannot wait for itself.
public protocol Authenticator: Sendable {
    /// The credential type.
    associatedtype Credential: AuthenticationCredential

    /// Returns `request` signed with `credential`, for example with an `Authorization` header.
    /// - Parameters:
    ///   - credential: The credential to apply.
    ///   - request: The request to sign.
    /// - Returns: The signed request.
    func apply(_ credential: Credential, to request: URLRequest) -> URLRequest

    /// Returns a new credential for an expired or rejected one. Implement this or
    /// ``refresh(_:context:)``.
    /// - Parameter credential: The current credential.
    /// - Returns: The new credential.
    /// - Throws: Any error, to fail every request waiting for the refresh with it.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Returns a new credential for an expired or rejected one, with the target that asked for it
    /// and the provider to send the refresh through. The interceptor calls this one; its default
    /// calls ``refresh(_:)``.
    /// - Parameters:
    ///   - credential: The current credential.
    ///   - context: The target that asked, and ``RefreshContext/send(_:)``.
    /// - Returns: The new credential.
    /// - Throws: Any error, to fail every request waiting for the refresh with it.
    func refresh(_ credential: Credential, context: RefreshContext) async throws -> Credential

    /// Obtains a first credential when the interceptor has none: a service that starts without a
    /// token and signs in with its client credentials, or an app that can sign in again silently
    /// after a sign-out. The interceptor calls it once however many requests need it, as a
    /// refresh, and `onRefresh` receives its credential. The default returns `nil`: without a
    /// credential, requests fail with ``AuthenticationError/missingCredential``.
    /// ```swift
    /// func signIn(context: RefreshContext) async throws -> OAuthCredential? {
    ///     try await context.send(MyAPI.login).map(OAuthCredential.self)  // client credentials, say
    /// }
    /// ```
    /// - Parameter context: The target that asked, and ``RefreshContext/send(_:)``.
    /// - Returns: The credential, or `nil` when there is no way to sign in without the user.
    /// - Throws: Any error, to fail every request waiting for the sign-in with it.
    func signIn(context: RefreshContext) async throws -> Credential?

    /// Whether a failed attempt failed because of its credential. The default is a status code in
    /// ``authenticationFailureStatusCodes``.
    /// - Parameters:
    ///   - request: The attempt's request.
    ///   - response: The attempt's response.
    /// - Returns: `true` to refresh the credential and retry.
    func isAuthenticationFailure(_ request: URLRequest, response: Response) -> Bool

    /// The status codes that mean "the credential was rejected"; `[401]` by default.
    var authenticationFailureStatusCodes: Set<Int> { get }

    /// Whether `request` was signed with `credential`. ``AuthenticationInterceptor`` remembers which
    /// credential signed each attempt it adapted, so it asks this only for a ``RequestContext``
    /// made by hand. The default applies `credential` again and compares method, URL, headers and
    /// body: unchanged means already signed with it (a signature with a nonce or a date never
    /// compares equal; implement this for such a scheme if you call the interceptor by hand).
    /// - Parameters:
    ///   - request: A signed request.
    ///   - credential: The current credential.
    /// - Returns: `true` when the request carries this credential.
    func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool

    /// Whether a request needs the credential at all; `true` by default. Return `false` for login
    /// and refresh endpoints, or for hosts other than your API's.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - target: The target being requested: its ``TargetType/underlyingTarget`` (a
    ///     ``MultiTarget`` is unwrapped), so a `switch` on your API enum matches.
    /// - Returns: `false` to send the request as it is and never retry it for authentication.
    func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool

    /// Whether a request needs the credential, may go without one, or is never signed. The
    /// default is ``CredentialRequirement/required`` when ``requiresAuthentication(_:target:)`` is
    /// `true`, else ``CredentialRequirement/none``; return ``CredentialRequirement/optional`` for
    /// public endpoints a signed-out user may call (see <doc:AuthenticationAndRetries>).
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - target: The target being requested: its ``TargetType/underlyingTarget``.
    /// - Returns: The request's requirement.
    func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement
}

extension Authenticator {
    /// Fails with ``AuthenticationError/refreshNotImplemented``: implement this or
    /// ``refresh(_:context:)``.
    public func refresh(_ credential: Credential) async throws -> Credential {
        throw AuthenticationError.refreshNotImplemented
    }

    /// Calls ``refresh(_:)``.
    public func refresh(_ credential: Credential, context: RefreshContext) async throws -> Credential {
        try await refresh(credential)
    }

    /// `nil`: this authenticator cannot sign in by itself.
    public func signIn(context: RefreshContext) async throws -> Credential? { nil }

    /// `[401]`.
    public var authenticationFailureStatusCodes: Set<Int> { [401] }

    /// A status code in ``authenticationFailureStatusCodes``.
    public func isAuthenticationFailure(_ request: URLRequest, response: Response) -> Bool {
        authenticationFailureStatusCodes.contains(response.statusCode)
    }

    /// Whether applying `credential` again leaves the request's method, URL, headers and body
    /// unchanged. (`URLRequest`'s own `==` ignores headers on Linux, so it cannot tell.)
    public func isRequest(_ request: URLRequest, authenticatedWith credential: Credential) -> Bool {
        RequestKey(apply(credential, to: request)) == RequestKey(request)
    }

    /// `true`.
    public func requiresAuthentication(_ request: URLRequest, target: any TargetType) -> Bool { true }

    /// ``CredentialRequirement/required`` when ``requiresAuthentication(_:target:)`` says so, else
    /// ``CredentialRequirement/none``.
    public func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement {
        requiresAuthentication(request, target: target) ? .required : .none
    }
}
