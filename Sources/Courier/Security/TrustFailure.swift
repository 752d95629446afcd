/// Why a request was not sent on a TLS connection: its trust policy (``TrustPolicy``) refused the
/// connection, or the engine could not enforce the policy. Never retried; never counted against a
/// circuit breaker.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum TrustFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server's chain holds none of the host's pinned keys: the pins expected and the chain's,
    /// leaf first.
    case pinMismatch(host: String, expected: [SPKIPin], chain: [SPKIPin])
    /// The engine cannot enforce the policy for this host (why, and what can): nothing was sent.
    case notEnforceable(host: String, reason: String)
    /// A pinned host asked for over plain HTTP, where there is no key to check: nothing was sent.
    case cleartext(host: String)
    /// The policy's roots or client identity could not be read by the engine.
    case unusableCertificate(String)

    /// A sentence describing the failure; a pin mismatch lists both sides, as OkHttp does.
    public var description: String {
        switch self {
        case .pinMismatch(let host, let expected, let chain):
            "Certificate pinning failure for \(host)!\n  Peer certificate chain:\n"
                + chain.map { "    \($0)" }.joined(separator: "\n") + "\n  Pinned certificates for \(host):\n"
                + expected.map { "    \($0)" }.joined(separator: "\n")
        case .notEnforceable(let host, let reason):
            "The trust policy for \(host) cannot be enforced: \(reason). The request was not sent."
        case .cleartext(let host):
            "\(host) is pinned, and the request is plain HTTP, whose server proves no key. It was not sent."
        case .unusableCertificate(let reason):
            "A certificate of the trust policy cannot be used: \(reason)."
        }
    }
}

/// A ``TrustPolicy`` that cannot be built.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum TrustPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `sha256/` and 32 bytes in Base64.
    case invalidPin(String)
    /// Not `host`, `*.suffix` or `**.suffix`.
    case invalidHostPattern(String)
    /// Fewer than two different pins for the pattern: one must be a backup.
    case missingBackupPin(String)
    /// Not an X.509 certificate in DER or PEM: why.
    case invalidCertificate(String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .invalidPin(let pin): "\(pin) is not a pin: write sha256/ and the key's SHA-256 in Base64."
        case .invalidHostPattern(let pattern): "\(pattern) is not a host pattern: write host, *.suffix or **.suffix."
        case .missingBackupPin(let pattern):
            "\(pattern) needs at least two pins, one of a backup key, so that replacing a key cannot lock clients out."
        case .invalidCertificate(let reason): "Not a certificate in DER or PEM: \(reason)."
        }
    }
}
