import Foundation

/// A pin: the SHA-256 digest of a certificate's Subject Public Key Info (its public key and
/// algorithm, DER-encoded), written `sha256/` and the digest in Base64, as OkHttp, TrustKit and
/// HPKP (RFC 7469) write it.
///
/// ```swift
/// let pin = try SPKIPin("sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
/// ```
/// A pin survives a certificate's renewal with the same key, and pins a CA's key as well as a
/// server's. Compute one from a certificate file with ``init(certificate:)``, or from a
/// certificate or a live server with `openssl` (see the Security article).
public struct SPKIPin: Sendable, Hashable, CustomStringConvertible {
    /// The digest's 32 bytes.
    public let digest: [UInt8]

    /// Reads a pin written `sha256/BASE64`.
    /// - Parameter text: The pin.
    /// - Throws: ``TrustPolicyError/invalidPin(_:)`` when it is not `sha256/` and 32 bytes in Base64.
    public init(_ text: String) throws(TrustPolicyError) {
        let trimmed = text.trimmingSpacesAndTabs
        guard trimmed.hasPrefix("sha256/"), let digest = Data(base64Encoded: String(trimmed.dropFirst(7))),
            digest.count == 32
        else { throw .invalidPin(text) }
        self.digest = Array(digest)
    }

    /// The pin of a Subject Public Key Info.
    /// - Parameter subjectPublicKeyInfo: The DER encoding of the key's Subject Public Key Info.
    public init(subjectPublicKeyInfo: some Collection<UInt8>) {
        digest = SHA256.bytes(subjectPublicKeyInfo)
    }

    /// The pin of a certificate's key.
    ///
    /// ```swift
    /// let pin = try SPKIPin(certificate: Data(contentsOf: URL(fileURLWithPath: "server.pem")))
    /// print(pin)   // sha256/…, for the policy
    /// ```
    /// - Parameter certificate: One X.509 certificate, DER or PEM (the first `CERTIFICATE` block
    ///   of a PEM file). It is not validated: only its key is read.
    /// - Throws: ``TrustPolicyError/invalidCertificate(_:)`` when it is neither DER nor PEM, or
    ///   is cut short.
    public init(certificate: Data) throws(TrustPolicyError) {
        self.init(subjectPublicKeyInfo: try CertificateKey.subjectPublicKeyInfo(of: certificate))
    }

    /// `sha256/` and the digest in Base64.
    public var description: String { "sha256/" + Data(digest).base64EncodedString() }
}
