import Foundation

/// What a TLS connection must prove before a request is sent on it: public-key pins per host
/// (with backup pins and an expiry), the roots of trust its chain must lead to, and the
/// certificate the client presents (mutual TLS). Set one for a provider
/// (``ProviderOptions/trust``) or for a target (``TargetType/trustPolicy``).
///
/// ```swift
/// var trust = TrustPolicy()
/// try trust.pin("**.bank.example", to: [
///     "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",   // the current key
///     "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",   // the backup, kept offline
/// ], expires: Date(timeIntervalSinceNow: 365 * 86_400))
/// let bank = Provider<Bank>(options: ProviderOptions(trust: trust))
/// ```
/// A connection to a pinned host is accepted only when its chain, validated as usual, holds a key
/// of one of the host's pins; otherwise the request fails with
/// ``TrustFailure/pinMismatch(host:expected:chain:)`` before anything is sent on it. An engine
/// that cannot enforce the policy for a request never sends it: the request fails with
/// ``TrustFailure/notEnforceable(host:reason:)`` (``TransportCapabilities/trustPolicy`` says which
/// engines can). A trust failure is never retried and never counts against a circuit breaker.
public struct TrustPolicy: Sendable {
    /// The pins of the hosts a pattern names.
    public struct PinSet: Sendable, Hashable {
        /// The hosts.
        public let pattern: HostPattern
        /// The keys a host's chain must hold one of.
        public let pins: Set<SPKIPin>
        /// After this date the pins are not enforced (an app in the field cannot lock itself out
        /// of its API after its keys change); `nil` for never.
        public let expires: Date?
    }

    /// The roots of trust a server's chain must lead to.
    public enum Roots: Sendable, Hashable {
        /// The system's.
        case system
        /// The system's and these certificates (DER or PEM): a private CA besides the public ones.
        case systemAnd([Data])
        /// Only these certificates (DER or PEM): a private CA alone.
        case only([Data])
    }

    /// The pin sets, in the order they were added.
    public private(set) var pinSets: [PinSet] = []
    /// The roots of trust; the system's by default.
    public var roots: Roots
    /// The certificate the client presents when a server asks for one; none by default.
    public var clientIdentity: ClientIdentity?
    /// Whether a pin mismatch is only reported (to `report`) and the request sent anyway: to try
    /// pins in the field before enforcing them. `false` by default.
    public var reportsOnly: Bool
    /// Receives every pin mismatch, enforced or reported only, from the engine's thread.
    public var report: (@Sendable (TrustFailure) -> Void)?

    /// Creates a policy without pins.
    /// - Parameters:
    ///   - roots: The roots of trust; the system's by default.
    ///   - clientIdentity: The certificate the client presents; none by default.
    ///   - reportsOnly: Whether pin mismatches are only reported; `false` by default.
    ///   - report: Receives every pin mismatch; none by default.
    public init(
        roots: Roots = .system, clientIdentity: ClientIdentity? = nil, reportsOnly: Bool = false,
        report: (@Sendable (TrustFailure) -> Void)? = nil
    ) {
        self.roots = roots
        self.clientIdentity = clientIdentity
        self.reportsOnly = reportsOnly
        self.report = report
    }

    /// Pins the hosts `pattern` names to `pins`.
    /// - Parameters:
    ///   - pattern: `host`, `*.suffix` or `**.suffix` (see ``HostPattern``).
    ///   - pins: `sha256/BASE64` pins; at least two different ones, a backup among them, so that
    ///     a key that must be replaced does not lock the app out.
    ///   - expires: After this date the pins are not enforced; `nil` for never.
    /// - Throws: ``TrustPolicyError`` for a bad pattern or pin, or fewer than two pins.
    public mutating func pin(_ pattern: String, to pins: [String], expires: Date? = nil) throws(TrustPolicyError) {
        let hosts = try HostPattern(pattern)
        var parsed = Set<SPKIPin>()
        for pin in pins { parsed.insert(try SPKIPin(pin)) }
        guard parsed.count >= 2 else { throw .missingBackupPin(pattern) }
        pinSets.append(PinSet(pattern: hosts, pins: parsed, expires: expires))
    }

    /// The pins a connection to `host` must match one of at `date`: those of every unexpired set
    /// whose pattern names it.
    /// - Parameters:
    ///   - host: The host.
    ///   - date: When; now by default.
    /// - Returns: The pins, empty when the host is not pinned.
    public func pins(for host: String, at date: Date = Date()) -> Set<SPKIPin> {
        var pins = Set<SPKIPin>()
        for set in pinSets where set.pattern.matches(host) && (set.expires.map { date < $0 } ?? true) {
            pins.formUnion(set.pins)
        }
        return pins
    }

    /// Whether the policy asks anything of a connection to `host`: pins, other roots, or a client
    /// certificate.
    /// - Parameters:
    ///   - host: The host.
    ///   - date: When; now by default.
    /// - Returns: `true` when an engine must enforce something for it.
    public func applies(to host: String, at date: Date = Date()) -> Bool {
        roots != .system || clientIdentity != nil || !pins(for: host, at: date).isEmpty
    }

    /// Checks the keys of a validated chain against `host`'s pins.
    /// - Parameters:
    ///   - host: The host connected to.
    ///   - chain: The pins of the chain's certificates, leaf first.
    ///   - date: When; now by default.
    /// - Returns: `nil` when the host is not pinned or the chain holds one of its keys; otherwise
    ///   the failure (reported to ``report``; the caller refuses the connection unless
    ///   ``reportsOnly``).
    public func evaluate(host: String, chain: [SPKIPin], at date: Date = Date()) -> TrustFailure? {
        let expected = pins(for: host, at: date)
        guard !expected.isEmpty, expected.isDisjoint(with: chain) else { return nil }
        let failure = TrustFailure.pinMismatch(
            host: host, expected: expected.sorted { $0.description < $1.description }, chain: chain)
        report?(failure)
        return failure
    }
}
