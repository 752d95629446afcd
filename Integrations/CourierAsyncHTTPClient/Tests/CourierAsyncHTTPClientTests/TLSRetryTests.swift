import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// ``RetryPolicy`` against TLS servers on this engine: a chain that does not validate, a pin
    /// that does not match, a refused client certificate (on a pinned connection) are tried once; a connection that closes
    /// during the handshake is retried. Counts are the server's.
    @Suite("RetryPolicy and TLS on AsyncHTTPClient")
    struct TLSRetryTests {
        typealias Guarded = TrustPolicyTests.Guarded

        private static func provider() -> Provider<Guarded> {
            Provider(
                transport: AsyncHTTPClientTransport(),
                interceptor: RetryPolicy(exponentialBackoffScale: 0.001, jitter: .none))
        }

        @Test("an untrusted chain, on AsyncHTTPClient's connection and on a pinned one: one connection")
        func untrustedChain() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let stranger = try TestCertificateAuthority()
            defer { stranger.remove() }
            var pinnedToStranger = TrustPolicy(roots: .only([try TrustPolicyTests.contents(stranger.caCertificate)]))
            try pinnedToStranger.pin(
                "127.0.0.1", to: [try PinningTests.pin(of: authority.serverCertificate), PinningTests.randomPin()])
            for policy in [
                nil, TrustPolicy(roots: .only([try TrustPolicyTests.contents(stranger.caCertificate)])),
                pinnedToStranger,
            ] {
                let server = try TLSServer(authority: authority)
                defer { server.stop() }
                let refused = await capture {
                    try await Self.provider().request(Guarded(baseURL: server.baseURL, trustPolicy: policy))
                }
                #expect((refused?.underlyingError as? TransportFailure)?.kind == .secureConnectionFailed)
                #expect(server.connectionCount == 1, "\(String(describing: policy))")
            }
        }

        @Test("a pin that does not match, a refused client certificate: one connection")
        func refusals() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let wrongPins = try PinningTests.policy(
                authority, pins: [PinningTests.randomPin(), PinningTests.randomPin()])
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            _ = await capture {
                try await Self.provider().request(Guarded(baseURL: server.baseURL, trustPolicy: wrongPins))
            }
            #expect(server.connectionCount == 1)
            let mutual = try TLSServer(authority: authority, requireClientCertificate: true)
            defer { mutual.stop() }
            // On a pinned connection, which reads the server's alert (AsyncHTTPClient's own reports
            // the refusal as a closed connection).
            let pinned = try PinningTests.pinnedToServer(authority)
            _ = await capture {
                try await Self.provider().request(Guarded(baseURL: mutual.baseURL, trustPolicy: pinned))
            }
            #expect(mutual.connectionCount == 1)
        }

        @Test("a server that closes the connection during the handshake: a lost connection, retried")
        func closedDuringHandshake() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let accepted = NIOLockedValueBox(0)
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .childChannelInitializer { channel in
                    accepted.withLockedValue { $0 += 1 }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(CloseOnRead())
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            defer { server.close(promise: nil) }
            let url = try #require(URL(string: "https://127.0.0.1:\(server.localAddress?.port ?? 0)"))
            let trusted = TrustPolicy(roots: .only([try TrustPolicyTests.contents(authority.caCertificate)]))
            for policy in [nil, trusted, try PinningTests.pinnedToServer(authority)] {
                accepted.withLockedValue { $0 = 0 }
                let lost = await capture {
                    try await Self.provider().request(Guarded(baseURL: url, trustPolicy: policy))
                }
                #expect(
                    (lost?.underlyingError as? TransportFailure)?.kind == .connectionLost, "\(String(describing: lost))"
                )
                // Three attempts; AsyncHTTPClient's pool may try a connection again on its own.
                #expect(accepted.withLockedValue { $0 } >= 3, "\(String(describing: policy))")
            }
        }
    }
}

/// Reads the client's first bytes (its ClientHello) and closes the connection, as a server that
/// went away mid-handshake.
private final class CloseOnRead: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.close(promise: nil)
    }
}
