import Foundation

/// Why a redirect was not followed and the request failed instead of answering with the 3xx.
///
/// Never retried by ``RetryPolicy`` (the server would answer the same), and not counted against a
/// circuit breaker (the server answered). Later versions may add cases: a `switch` over it needs a
/// `default` (see <doc:SourceStability>).
public enum RedirectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An `https` request was redirected to plain `http`: following would send the request (its
    /// body, its cookies for that host) in clear, so it was not sent. Allow it with
    /// ``RedirectPolicy/allowingDowngrade()``.
    case downgrade(from: URL, to: URL)

    /// A sentence describing the refusal, the URLs' secrets hidden as ``Redaction/default`` says.
    public var description: String {
        description(redaction: .default)
    }

    /// A sentence describing the refusal, the URLs' secrets hidden as `redaction` says (a
    /// provider's error texts pass the redaction they were asked for).
    /// - Parameter redaction: What to hide.
    /// - Returns: The sentence.
    public func description(redaction: Redaction) -> String {
        switch self {
        case .downgrade(let from, let to):
            "\(redaction.url(from)) redirected to \(redaction.url(to)), from https to plain http: "
                + "following would send the request in clear, so it was not sent "
                + "(RedirectPolicy.allowingDowngrade() allows it)."
        }
    }
}

extension RedirectError: LocalizedError {
    /// The same as ``description``.
    public var errorDescription: String? { description }
}
