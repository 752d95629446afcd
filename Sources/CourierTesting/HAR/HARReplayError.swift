import Foundation

/// Why a ``HARReplayer`` could not answer.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum HARReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HAR file could not be read, or is not HAR 1.2.
    case unreadable(URL, reason: String)
    /// No recorded entry matches the request: what was asked, and the nearest entries with why
    /// each does not match.
    case unmatched(request: String, nearest: [String])

    /// A sentence describing the problem: for an unmatched request, the request and the nearest
    /// recorded entries with their differences.
    public var description: String {
        switch self {
        case .unreadable(let url, let reason):
            return "Cannot read the HAR file \(url.path): \(reason)."
        case .unmatched(let request, let nearest):
            guard !nearest.isEmpty else { return "No recorded entry matches \(request): the file has none left." }
            return "No recorded entry matches \(request). Nearest:\n"
                + nearest.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}
