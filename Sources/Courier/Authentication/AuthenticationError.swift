import Foundation

/// Why an ``AuthenticationInterceptor`` failed a request.
///
/// An open set: later versions add codes without breaking anyone's code. Compare ``code``, or
/// match a code in a `catch`:
/// ```swift
/// let provider = Provider<GitHub>()
/// do {
///     _ = try await provider.request(.zen)
/// } catch {
///     if (error.underlyingError as? AuthenticationError)?.code == .refreshFailed {
///         print("Signed out")
///     }
/// }
/// ```
/// A `switch` over ``code`` needs a `default`. (It was an enum until the addition of
/// ``refreshNotImplemented`` broke every exhaustive `switch`.)
public struct AuthenticationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, one of the static members.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, such as `refreshFailed`.
        public let description: String

        private init(_ name: String) {
            description = name
        }

        /// There is no credential to apply, and the authenticator cannot sign in; nothing was sent.
        public static let missingCredential = Code("missingCredential")
        /// More refreshes than the ``RefreshWindow`` allows happened within it.
        public static let excessiveRefresh = Code("excessiveRefresh")
        /// Refreshing (or signing in) failed with the authenticator's error.
        public static let refreshFailed = Code("refreshFailed")
        /// The authenticator implements neither `refresh(_:)` nor `refresh(_:context:)`.
        public static let refreshNotImplemented = Code("refreshNotImplemented")
    }

    /// What went wrong.
    public let code: Code
    /// The authenticator's error, for ``Code/refreshFailed``.
    public let refreshError: (any Error)?
    /// The refreshes and the window, for ``Code/excessiveRefresh``.
    public let excessiveRefreshAttempts: (attempts: Int, interval: TimeInterval)?
    /// The authentication failure this request received (its 401, with headers and body), when it
    /// got one before the refresh failed; `nil` for a request that waited in `adapt`. It is what
    /// ``CourierError/response`` gives, so that `error.response?.statusCode == 401` finds it.
    public internal(set) var response: Response?

    private init(
        _ code: Code, refreshError: (any Error)? = nil,
        excessiveRefreshAttempts: (attempts: Int, interval: TimeInterval)? = nil
    ) {
        self.code = code
        self.refreshError = refreshError
        self.excessiveRefreshAttempts = excessiveRefreshAttempts
        self.response = nil
    }

    /// The same error for a request that received `response` before it failed.
    func received(_ response: Response?) -> AuthenticationError {
        var copy = self
        copy.response = response
        return copy
    }

    /// There is no credential to apply; nothing was sent. Set one (after a login) to continue,
    /// or let the authenticator sign in (``Authenticator/signIn(context:)``).
    public static let missingCredential = AuthenticationError(.missingCredential)

    /// More refreshes than the ``RefreshWindow`` allows happened within it: the server keeps
    /// rejecting fresh credentials, so refreshing again would loop.
    /// - Parameters:
    ///   - attempts: The refreshes within the window.
    ///   - interval: The window, in seconds.
    /// - Returns: The error.
    public static func excessiveRefresh(attempts: Int, interval: TimeInterval) -> AuthenticationError {
        AuthenticationError(.excessiveRefresh, excessiveRefreshAttempts: (attempts, interval))
    }

    /// Refreshing the credential failed with `error` (the authenticator's). Every request that
    /// waited for the refresh fails with it.
    /// - Parameter error: The authenticator's error.
    /// - Returns: The error.
    public static func refreshFailed(_ error: any Error) -> AuthenticationError {
        AuthenticationError(.refreshFailed, refreshError: error)
    }

    /// The authenticator implements neither `refresh(_:)` nor `refresh(_:context:)`: implement
    /// one of them.
    public static let refreshNotImplemented = AuthenticationError(.refreshNotImplemented)

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch code {
        case .missingCredential:
            return "No credential to authenticate the request with: sign in first."
        case .excessiveRefresh:
            let (attempts, interval) = excessiveRefreshAttempts ?? (0, 0)
            return "The credential was refreshed \(attempts) times within \(interval) s and is still rejected; "
                + "refreshing stopped to avoid a loop."
        case .refreshFailed:
            return "Refreshing the credential failed: \(refreshError.map(Self.describe) ?? "unknown error")"
        case .refreshNotImplemented:
            return "The authenticator cannot refresh a credential: implement refresh(_:) or refresh(_:context:)."
        default:
            return code.description
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }

    /// Whether this is ``missingCredential``.
    public var isMissingCredential: Bool { code == .missingCredential }

    /// Whether `error` is an authentication error with the code of `pattern`: what lets a `catch`
    /// name one, as `catch AuthenticationError.missingCredential`.
    /// - Parameters:
    ///   - pattern: An error with the code to match.
    ///   - error: The error thrown.
    /// - Returns: `true` when the codes are the same.
    public static func ~= (pattern: AuthenticationError, error: any Error) -> Bool {
        (error as? AuthenticationError)?.code == pattern.code
    }
}

/// The refresh-loop guard of an ``AuthenticationInterceptor``: at most ``maximumAttempts``
/// refreshes within any ``interval``.
public struct RefreshWindow: Sendable, Hashable {
    /// The length of the window, in seconds.
    public var interval: TimeInterval
    /// The most refreshes allowed within the window.
    public var maximumAttempts: Int

    /// Creates a window; 5 refreshes within 30 s by default.
    /// - Parameters:
    ///   - interval: The length of the window, in seconds.
    ///   - maximumAttempts: The most refreshes allowed within it.
    public init(interval: TimeInterval = 30, maximumAttempts: Int = 5) {
        self.interval = interval
        self.maximumAttempts = maximumAttempts
    }
}
