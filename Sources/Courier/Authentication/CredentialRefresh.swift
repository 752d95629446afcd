import Foundation

/// A credential refresh (or a first sign-in) that an ``AuthenticationInterceptor`` ran: what
/// ``PluginType/didRefreshCredential(_:target:)`` receives, once per refresh however many
/// requests waited for it.
///
/// ```swift
/// func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {
///     print("\(refresh.kind) \(refresh.error == nil ? "succeeded" : "failed") in \(refresh.duration) s")
/// }
/// ```
public struct CredentialRefresh: Sendable {
    /// What was run.
    ///
    /// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
    public enum Kind: String, Sendable, Hashable {
        /// A credential was refreshed.
        case refresh
        /// A first credential was obtained (``Authenticator/signIn(context:)``).
        case signIn
    }

    /// What was run.
    public let kind: Kind
    /// How long it took, in seconds.
    public let duration: TimeInterval
    /// Why it failed, or `nil` when a credential was obtained.
    public let error: (any Error)?

    /// Creates a refresh report.
    /// - Parameters:
    ///   - kind: What was run.
    ///   - duration: How long it took, in seconds.
    ///   - error: Why it failed, or `nil`.
    public init(kind: Kind, duration: TimeInterval, error: (any Error)? = nil) {
        self.kind = kind
        self.duration = duration
        self.error = error
    }

    /// Whether a credential was obtained.
    public var succeeded: Bool { error == nil }
}
