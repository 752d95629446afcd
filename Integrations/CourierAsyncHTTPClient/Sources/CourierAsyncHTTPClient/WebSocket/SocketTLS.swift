import Courier
import Foundation
import NIOCore
import NIOSSL

/// The TLS of a `wss:` connection, under the request's trust policy as for its requests: a pinned
/// host's connection checks its pins during the handshake (``PinVerifier``); any other uses the
/// policy's roots and client certificate, or the system's roots; both verify the host name.
struct SocketTLS: Sendable {
    let context: NIOSSLContext
    /// The pins' verifier, for a pinned host.
    let verifier: PinVerifier?
    /// The name sent and verified; `nil` for an address.
    let hostname: String?

    init(policy: TrustPolicy?, host: String, connections: PinnedConnections) throws {
        hostname = IPAddressText.isAddress(host) ? nil : host
        if let policy, !policy.pins(for: host).isEmpty {
            let prepared = try connections.prepared(
                for: PinnedConnections.Key(host: host, port: 0, policy: policy), policy: policy)
            context = prepared.context
            verifier = PinVerifier(host: host, policy: policy, roots: prepared.roots)
            return
        }
        var tls = try policy.flatMap { try TrustConfiguration.tls(for: $0, host: host) } ?? .makeClientConfiguration()
        // A socket is HTTP/1.1's upgrade: HTTP/2 must not be negotiated.
        tls.applicationProtocols = ["http/1.1"]
        // The WebSocket's own close handshake is what ends it: the peer's TLS close_notify is not
        // worth waiting for (a dead peer never sends one).
        tls.shutdownTimeout = .milliseconds(250)
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw TrustFailure.unusableCertificate("the TLS context cannot be made (\(error))")
        }
        verifier = nil
    }

    /// The handler that runs the handshake as it is added.
    func handler() throws -> NIOSSLClientHandler {
        guard let verifier else { return try NIOSSLClientHandler(context: context, serverHostname: hostname) }
        return try NIOSSLClientHandler(
            context: context, serverHostname: hostname, customVerificationCallbackWithMetadata: verifier.verify)
    }
}
