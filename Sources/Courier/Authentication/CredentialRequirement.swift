import Foundation

/// Whether a request needs the ``AuthenticationInterceptor``'s credential, as an
/// ``Authenticator`` says per request with
/// ``Authenticator/credentialRequirement(for:target:)``.
///
/// ```swift
/// func credentialRequirement(for request: URLRequest, target: any TargetType) -> CredentialRequirement {
///     switch target as? GitHub {
///     case .zen?, .user?: .optional   // public data: signed when signed in
///     case nil: .none                 // another API's request
///     }
/// }
/// ```
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum CredentialRequirement: Sendable, Hashable {
    /// The request is signed; with no credential, the authenticator's
    /// ``Authenticator/signIn(context:)`` is asked for one first, and without one nothing is sent
    /// (``AuthenticationError/missingCredential``).
    case required
    /// The request is signed when there is a credential and sent unsigned when there is none
    /// (a signed-out user browsing public data). A 401 to an unsigned request asks
    /// ``Authenticator/signIn(context:)`` once, as a required request would, and retries signed
    /// when it gave a credential; otherwise the request fails with that 401 kept in the error.
    case optional
    /// The request is sent as it is and never retried for authentication: sign-in and refresh
    /// endpoints, other hosts.
    case none
}
