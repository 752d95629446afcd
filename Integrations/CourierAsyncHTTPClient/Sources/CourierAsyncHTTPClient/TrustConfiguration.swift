import Courier
import Foundation
import NIOSSL

/// A ``TrustPolicy`` as AsyncHTTPClient's per-request TLS configuration: its roots (the
/// system's, the system's and a private CA's, or a private CA's alone) and its client identity.
///
/// A pinned host is not sent this way: AsyncHTTPClient builds its TLS handlers itself and offers no
/// certificate verification callback (swift-server/async-http-client#285), so a request to one
/// goes on a ``PinnedExchange`` instead.
enum TrustConfiguration {
    /// The TLS configuration a request to `host` (not pinned) needs under `policy`, or `nil` when
    /// the policy asks nothing of it (the client's own configuration applies).
    /// - Throws: ``TrustFailure`` for a root or identity that cannot be read.
    static func tls(for policy: TrustPolicy, host: String) throws(TrustFailure) -> TLSConfiguration? {
        guard policy.applies(to: host) else { return nil }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch policy.roots {
        case .system: break
        case .systemAnd(let certificates):
            tls.additionalTrustRoots = [.certificates(try Self.certificates(in: certificates))]
        case .only(let certificates):
            tls.trustRoots = .certificates(try Self.certificates(in: certificates))
        }
        if let identity = policy.clientIdentity { try apply(identity, to: &tls) }
        return tls
    }

    /// The certificates of every item of `items`.
    static func certificates(in items: [Data]) throws(TrustFailure) -> [NIOSSLCertificate] {
        var all: [NIOSSLCertificate] = []
        for item in items { all += try certificates(item) }
        return all
    }

    /// The certificates in `data`: PEM (one or more) or one DER certificate.
    private static func certificates(_ data: Data) throws(TrustFailure) -> [NIOSSLCertificate] {
        do {
            if data.starts(with: Array("-----BEGIN".utf8)) { return try NIOSSLCertificate.fromPEMBytes(Array(data)) }
            return [try NIOSSLCertificate(bytes: Array(data), format: .der)]
        } catch {
            throw .unusableCertificate("a root certificate is neither PEM nor DER (\(error))")
        }
    }

    /// Sets the client's certificate chain and key.
    static func apply(_ identity: ClientIdentity, to tls: inout TLSConfiguration) throws(TrustFailure) {
        do {
            switch identity.source {
            case .pem(let chain, let key):
                tls.certificateChain = try NIOSSLCertificate.fromPEMBytes(Array(chain)).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(key), format: .pem))
            case .pkcs12(let archive, let password):
                let bundle = try NIOSSLPKCS12Bundle(buffer: Array(archive), passphrase: Array(password.utf8))
                tls.certificateChain = bundle.certificateChain.map { .certificate($0) }
                tls.privateKey = .privateKey(bundle.privateKey)
            @unknown default:
                throw TrustFailure.unusableCertificate("an identity of a kind this engine does not know")
            }
        } catch let failure as TrustFailure {
            throw failure
        } catch {
            throw .unusableCertificate("the client identity cannot be read (\(error))")
        }
    }
}
