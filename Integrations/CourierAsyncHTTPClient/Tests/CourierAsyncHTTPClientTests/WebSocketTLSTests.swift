import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// `wss:` through the provider on this engine: the trust policy (roots, pins, a client
    /// certificate) applies to a socket's connection as to a request's, against Python's
    /// `websockets` server over TLS.
    @Suite(
        "WebSockets over TLS",
        .enabled(if: PythonWebSocketPeer.isAvailable, "needs Python's websockets package (.ci/run installs it)"))
    struct WebSocketTLSTests {
        /// Opens a socket to `peer` under `trust`, echoes a message, closes.
        static func echo(_ peer: PythonWebSocketPeer, trust: TrustPolicy?) async throws {
            let provider = Provider<Chat>(
                transport: AsyncHTTPClientTransport(), options: ProviderOptions(trust: trust))
            let socket = try await provider.webSocket(.peer(peer.baseURL, path: "/room"))
            try await socket.send(.text("over TLS"))
            var messages = socket.messages.makeAsyncIterator()
            #expect(try await messages.next() == .text("over TLS"))
            await socket.close()
        }

        @Test("the policy's roots are trusted; without them the server's chain is not")
        func roots() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let peer = try PythonWebSocketPeer(tls: (authority.serverCertificate, authority.serverKey, nil))
            let root = try TrustPolicyTests.contents(authority.caCertificate)
            try await Self.echo(peer, trust: TrustPolicy(roots: .only([root])))
            let error = await #expect(throws: CourierError.self) { try await Self.echo(peer, trust: nil) }
            guard case .transport(let failure as TransportFailure, _)? = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .secureConnectionFailed)
        }

        @Test("a pinned host's key is checked during the handshake; a wrong pin refuses the socket")
        func pins() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let peer = try PythonWebSocketPeer(tls: (authority.serverCertificate, authority.serverKey, nil))
            try await Self.echo(peer, trust: try PinningTests.pinnedToServer(authority))
            let wrong = try PinningTests.policy(authority, pins: [PinningTests.randomPin(), PinningTests.randomPin()])
            let error = await #expect(throws: CourierError.self) { try await Self.echo(peer, trust: wrong) }
            guard case .transport(let failure, _)? = error else {
                Issue.record("expected a trust failure, got \(String(describing: error))")
                return
            }
            #expect(failure is TrustFailure)
        }

        @Test("the policy's client certificate is presented to a server that requires one")
        func clientCertificate() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let peer = try PythonWebSocketPeer(
                tls: (authority.serverCertificate, authority.serverKey, authority.caCertificate))
            let root = try TrustPolicyTests.contents(authority.caCertificate)
            let identity = try RefusedHandshakeTests.identity(of: authority)
            try await Self.echo(peer, trust: TrustPolicy(roots: .only([root]), clientIdentity: identity))
        }
    }
}
