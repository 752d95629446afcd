import Courier
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// The check of a pinned host's TLS connection, run during the handshake: the chain the server
/// presents is validated first (to the policy's roots, by RFC 5280, for the host's name), then
/// the keys of the validated chain are compared with the host's pins.
///
/// SwiftNIO SSL's custom verification replaces BoringSSL's own, so the chain is validated here,
/// with swift-certificates. Pins are compared with the validated chain, never with what the
/// server sent: a server may send any certificate it likes beside its own, a pinned one among
/// them.
final class PinVerifier: Sendable {
    /// The host connected to, as the URL names it.
    let host: String
    private let policy: TrustPolicy
    private let roots: CertificateStore
    /// Why the handshake was refused, for the request's error.
    private let refusal = NIOLockedValueBox<(any Error)?>(nil)

    /// A verifier for a connection to `host`, whose chain must lead to `roots` (the policy's,
    /// from ``roots(of:)``).
    init(host: String, policy: TrustPolicy, roots: CertificateStore) {
        self.host = host
        self.policy = policy
        self.roots = roots
    }

    /// The roots a policy names, parsed.
    /// - Throws: ``TrustFailure/unusableCertificate(_:)`` for a root that cannot be read;
    ///   ``TrustFailure/notEnforceable(host:reason:)`` for the system's roots on Apple platforms.
    static func roots(of policy: TrustPolicy, host: String) throws(TrustFailure) -> CertificateStore {
        #if canImport(Darwin)
            // swift-certificates reads the system's roots from the files Linux keeps them in;
            // Apple platforms keep them in Security.framework, which it does not read. A chain
            // checked against no roots would be refused every time, so the request is refused
            // before it is sent, saying what works.
            guard case .only = policy.roots else {
                throw .notEnforceable(
                    host: host,
                    reason: "on Apple platforms AsyncHTTPClientTransport checks a pinned host's chain against the "
                        + "policy's own roots only (TrustPolicy.Roots.only with the CA certificates the chain leads "
                        + "to); the system's roots are Security.framework's, which it cannot read")
            }
        #endif
        switch policy.roots {
        case .system: return CertificateStore.systemTrustRoots
        case .systemAnd(let items):
            var store = CertificateStore.systemTrustRoots
            store.append(contentsOf: try certificates(in: items))
            return store
        case .only(let items): return CertificateStore(try certificates(in: items))
        }
    }

    /// The error the request fails with when the handshake was refused here, if it was.
    var failure: (any Error)? { refusal.withLockedValue { $0 } }

    /// SwiftNIO SSL's callback: answers `promise` once the chain is checked.
    func verify(_ presented: [NIOSSLCertificate], _ promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        promise.completeWithTask { await self.verdict(on: presented) }
    }

    private func verdict(on presented: [NIOSSLCertificate]) async -> NIOSSLVerificationResultWithMetadata {
        do {
            let validated = try await validate(presented)
            let pins = try validated.map { SPKIPin(subjectPublicKeyInfo: try Self.subjectPublicKeyInfo(of: $0)) }
            if let mismatch = policy.evaluate(host: host, chain: pins), !policy.reportsOnly { throw mismatch }
            return .certificateVerified(VerificationMetadata(nil))
        } catch {
            refusal.withLockedValue { $0 = error }
            return .failed
        }
    }

    /// A certificate's Subject Public Key Info, DER-encoded: what a pin is the digest of.
    private static func subjectPublicKeyInfo(of certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate.publicKey)
        return serializer.serializedBytes
    }

    /// The chain from the server's certificate to one of the roots, as X.509 validation builds it.
    private func validate(_ presented: [NIOSSLCertificate]) async throws -> [Certificate] {
        let chain = try presented.map { try Certificate(derEncoded: try $0.toDERBytes()) }
        guard let leaf = chain.first else { throw Self.untrusted(host, ["the server presented no certificate"]) }
        let address = IPAddressText.isAddress(host)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy()
            ServerIdentityPolicy(serverHostname: address ? nil : host, serverIP: address ? host : nil)
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst())) {
        case .validCertificate(let validated): return Array(validated)
        case .couldNotValidate(let failures): throw Self.untrusted(host, failures.map { "\($0.policyFailureReason)" })
        }
    }

    /// The failure of a chain that does not validate: what URLSession calls an untrusted server.
    private static func untrusted(_ host: String, _ reasons: [String]) -> TransportFailure {
        TransportFailure(kind: .secureConnectionFailed, underlyingError: UntrustedChain(host: host, reasons: reasons))
    }

    /// The certificates of every item (PEM or DER) of a policy's roots.
    private static func certificates(in items: [Data]) throws(TrustFailure) -> [Certificate] {
        do {
            return try TrustConfiguration.certificates(in: items).map {
                try Certificate(derEncoded: try $0.toDERBytes())
            }
        } catch let failure as TrustFailure {
            throw failure
        } catch {
            throw .unusableCertificate("a root certificate cannot be read (\(error))")
        }
    }
}

/// A server chain that does not lead to the policy's roots, or is not valid for the host: the
/// underlying error of a `TransportFailure` of kind `secureConnectionFailed`.
struct UntrustedChain: Error, CustomStringConvertible {
    /// The host connected to.
    let host: String
    /// Why each candidate chain failed.
    let reasons: [String]

    var description: String {
        "The certificate chain of \(host) is not trusted: " + reasons.joined(separator: "; ")
    }
}

/// Whether a URL's host is an IP address (checked against its certificate's IP names) or a name.
enum IPAddressText {
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
