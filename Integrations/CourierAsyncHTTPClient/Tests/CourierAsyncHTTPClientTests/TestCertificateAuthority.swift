import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made for one test run with swift-crypto and swift-certificates (no
/// key is ever committed), and certificates it signs: for a server on 127.0.0.1 and localhost,
/// and for a client. P-256 keys; valid for a day; written as PEM files in a folder of their own,
/// deleted with `remove()`.
struct TestCertificateAuthority {
    let folder: URL
    var caCertificate: URL { folder.appendingPathComponent("ca.pem") }
    var serverCertificate: URL { folder.appendingPathComponent("server.pem") }
    var serverKey: URL { folder.appendingPathComponent("server.key") }
    var clientCertificate: URL { folder.appendingPathComponent("client.pem") }
    var clientKey: URL { folder.appendingPathComponent("client.key") }

    private let key = P256.Signing.PrivateKey()
    private let name: DistinguishedName

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        name = try DistinguishedName { CommonName("Courier Test CA") }
        let authority = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: Date(timeIntervalSinceNow: -3600), notValidAfter: Date(timeIntervalSinceNow: 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key))
        try Self.write(authority, to: caCertificate)
        _ = try issueServerCertificate("server")
        try issue(
            "client", subject: "Courier Test Client", names: [], usage: .clientAuth)
    }

    /// Another server certificate for 127.0.0.1 and localhost, with a key of its own.
    /// - Returns: The certificate's and the key's files.
    func issueServerCertificate(_ name: String) throws -> (certificate: URL, key: URL) {
        try issue(
            name, subject: "127.0.0.1",
            names: [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")],
            usage: .serverAuth)
        return (folder.appendingPathComponent("\(name).pem"), folder.appendingPathComponent("\(name).key"))
    }

    /// Signs a certificate for a new key; writes both as `NAME.pem` and `NAME.key`.
    @discardableResult
    private func issue(
        _ file: String, subject: String, names: [GeneralName], usage: ExtendedKeyUsage.Usage
    ) throws -> Certificate {
        let leafKey = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
            notValidBefore: Date(timeIntervalSinceNow: -3600), notValidAfter: Date(timeIntervalSinceNow: 86_400),
            issuer: name, subject: try DistinguishedName { CommonName(subject) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                try ExtendedKeyUsage([usage])
                if !names.isEmpty { SubjectAlternativeNames(names) }
            },
            issuerPrivateKey: .init(key))
        try Self.write(certificate, to: folder.appendingPathComponent("\(file).pem"))
        try Data(leafKey.pemRepresentation.utf8).write(to: folder.appendingPathComponent("\(file).key"))
        return certificate
    }

    private static func write(_ certificate: Certificate, to file: URL) throws {
        try Data(certificate.serializeAsPEM().pemString.utf8).write(to: file)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
