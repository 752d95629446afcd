import Foundation

/// Why an ``AuthenticationInterceptor`` failed a request.
public enum AuthenticationError: Error, Sendable, CustomStringConvertible {
    /// There is no credential to apply; nothing was sent. Set one (after a login) to continue.
    case missingCredential
    /// More refreshes than the ``RefreshWindow`` allows happened within it: the server keeps
    /// rejecting fresh credentials, so refreshing again would loop.
    case excessiveRefresh(attempts: Int, interval: TimeInterval)
    /// Refreshing the credential failed with this error (the authenticator's). Every request
    /// that waited for the refresh fails with it.
    case refreshFailed(any Error)
    /// The authenticator implements neither `refresh(_:)` nor `refresh(_:context:)`: implement
    /// one of them.
    case refreshNotImplemented

    /// A sentence describing the problem and its fix.
    public var description: String {
        switch self {
        case .missingCredential:
            "No credential to authenticate the request with: sign in first."
        case .excessiveRefresh(let attempts, let interval):
            "The credential was refreshed \(attempts) times within \(interval) s and is still rejected; "
                + "refreshing stopped to avoid a loop."
        case .refreshFailed(let error):
            "Refreshing the credential failed: \(Self.describe(error))"
        case .refreshNotImplemented:
            "The authenticator cannot refresh a credential: implement refresh(_:) or refresh(_:context:)."
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }

    /// Whether this is ``missingCredential``.
    public var isMissingCredential: Bool {
        if case .missingCredential = self { return true }
        return false
    }

    /// The attempts and window of ``excessiveRefresh(attempts:interval:)``, or `nil`.
    public var excessiveRefreshAttempts: (attempts: Int, interval: TimeInterval)? {
        if case .excessiveRefresh(let attempts, let interval) = self { return (attempts, interval) }
        return nil
    }

    /// The authenticator's error of ``refreshFailed(_:)``, or `nil`.
    public var refreshError: (any Error)? {
        if case .refreshFailed(let error) = self { return error }
        return nil
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
