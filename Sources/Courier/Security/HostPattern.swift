/// The hosts a set of pins applies to, written as OkHttp writes them: `api.example.com` (that host
/// only), `*.example.com` (one label before `example.com`: `www.example.com`, not
/// `example.com` nor `a.b.example.com`), `**.example.com` (any number of labels, none included:
/// `example.com`, `www.example.com`, `a.b.example.com`). Compared without case.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// How many labels the pattern allows before its suffix.
    private enum Prefix: Hashable { case none, oneLabel, anyLabels }

    private let prefix: Prefix
    /// The host, or the suffix after `*.` or `**.`, in lower case.
    private let suffix: String

    /// Reads a pattern.
    /// - Parameter text: `host`, `*.suffix` or `**.suffix`.
    /// - Throws: ``TrustPolicyError/invalidHostPattern(_:)`` for a pattern with a wildcard
    ///   elsewhere, an empty label, or a character a host cannot have.
    public init(_ text: String) throws(TrustPolicyError) {
        let lowered = text.lowercased()
        let (prefix, suffix): (Prefix, Substring) =
            lowered.hasPrefix("**.")
            ? (.anyLabels, lowered.dropFirst(3))
            : lowered.hasPrefix("*.") ? (.oneLabel, lowered.dropFirst(2)) : (.none, lowered[...])
        let labels = suffix.split(separator: ".", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-:[]")
        guard !suffix.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy(allowed.contains) }) else {
            throw .invalidHostPattern(text)
        }
        self.prefix = prefix
        self.suffix = String(suffix)
    }

    /// Whether `host` is one the pattern names.
    /// - Parameter host: A host name (a trailing dot is ignored).
    /// - Returns: `true` when it matches.
    public func matches(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        switch prefix {
        case .none:
            return host == suffix
        case .oneLabel:
            guard host.hasSuffix("." + suffix) else { return false }
            return !host.dropLast(suffix.count + 1).contains(".") && host.count > suffix.count + 1
        case .anyLabels:
            return host == suffix || host.hasSuffix("." + suffix)
        }
    }

    /// The pattern as written (in lower case).
    public var description: String {
        switch prefix {
        case .none: suffix
        case .oneLabel: "*." + suffix
        case .anyLabels: "**." + suffix
        }
    }
}
