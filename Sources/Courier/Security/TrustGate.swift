import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The check before each exchange of a request with a trust policy reaches the engine (each
/// redirect hop and each piece of a resumable transfer included): a request whose trust policy
/// applies to its host goes only to an engine that enforces it, and never in plain HTTP to a
/// pinned host. ``TrustGateStage`` runs it, the last stage above the engine, only in the chain of
/// a request that has a policy, so no other request pays for the check.
enum TrustGate {
    /// Lets `request` through to `engine`, or refuses it unsent.
    /// - Throws: ``TrustFailure/cleartext(host:)`` or ``TrustFailure/notEnforceable(host:reason:)``.
    static func admit(_ request: TransportRequest, _ trust: TrustPolicy, to engine: any Transport) throws(TrustFailure)
    {
        guard let url = request.urlRequest.url, let host = url.host else { return }
        let scheme = url.scheme?.lowercased()
        if scheme == "http" || scheme == "ws" {
            if !trust.pins(for: host).isEmpty { throw .cleartext(host: host) }
            return
        }
        guard trust.applies(to: host), !engine.capabilities.contains(.trustPolicy) else { return }
        throw .notEnforceable(host: host, reason: reason(engine))
    }

    /// Why `engine` cannot enforce a trust policy, and what can.
    private static func reason(_ engine: any Transport) -> String {
        let remedy =
            "; send it with an engine that declares TransportCapabilities.trustPolicy, such as "
            + "AsyncHTTPClientTransport (CourierAsyncHTTPClient), which enforces pins, roots and client "
            + "certificates on every platform"
        if engine is URLSessionTransport {
            #if canImport(FoundationNetworking)
                // FoundationNetworking never asks its delegate about a server's trust.
                return "URLSession on Linux delivers no server-trust challenge, so no pin, root or client "
                    + "certificate can be checked" + remedy
            #else
                return "URLSessionTransport does not answer server-trust challenges with a trust policy yet" + remedy
            #endif
        }
        return "\(type(of: engine)) does not declare TransportCapabilities.trustPolicy" + remedy
    }
}

/// A trust policy held by reference, shared by a provider's requests and their copies.
final class TrustBox: Sendable {
    let policy: TrustPolicy

    init(_ policy: TrustPolicy) {
        self.policy = policy
    }
}
