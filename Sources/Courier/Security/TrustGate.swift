import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The check at the bottom of the provider's chain, before each exchange reaches the engine (each
/// redirect hop included): a request whose trust policy applies to its host goes only to an
/// engine that enforces it, and never in plain HTTP to a pinned host.
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
        #if canImport(FoundationNetworking)
            // FoundationNetworking never asks its delegate about a server's trust.
            if engine is URLSessionTransport {
                return "URLSession on Linux delivers no server-trust challenge, so no pin, root or client "
                    + "certificate can be checked; send it with an engine that declares "
                    + "TransportCapabilities.trustPolicy"
            }
        #endif
        return "\(type(of: engine)) does not declare TransportCapabilities.trustPolicy"
    }
}
