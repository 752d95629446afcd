import Foundation

/// A certificate chain and its private key, which the client presents when the server asks for one
/// (mutual TLS): for internal services that authenticate their callers by certificate.
///
/// ```swift
/// let secrets = URL(fileURLWithPath: "/etc/courier", isDirectory: true)
/// let identity = ClientIdentity.pem(
///     certificateChain: try Data(contentsOf: secrets.appendingPathComponent("client.pem")),
///     privateKey: try Data(contentsOf: secrets.appendingPathComponent("client.key")))
/// ```
public struct ClientIdentity: Sendable, Hashable {
    /// Where the identity comes from.
    public enum Source: Sendable, Hashable {
        /// PEM text: the chain (leaf first) and the private key (PKCS#8 or the key's own format).
        case pem(certificateChain: Data, privateKey: Data)
        /// A PKCS#12 archive (`.p12`, `.pfx`) and its password.
        case pkcs12(Data, password: String)
    }

    /// Where the identity comes from.
    public let source: Source

    /// An identity from PEM text.
    /// - Parameters:
    ///   - certificateChain: The chain, leaf first, as PEM.
    ///   - privateKey: The leaf's private key, as PEM.
    /// - Returns: The identity.
    public static func pem(certificateChain: Data, privateKey: Data) -> ClientIdentity {
        ClientIdentity(source: .pem(certificateChain: certificateChain, privateKey: privateKey))
    }

    /// An identity from a PKCS#12 archive.
    /// - Parameters:
    ///   - archive: The archive's bytes.
    ///   - password: Its password.
    /// - Returns: The identity.
    public static func pkcs12(_ archive: Data, password: String) -> ClientIdentity {
        ClientIdentity(source: .pkcs12(archive, password: password))
    }
}
