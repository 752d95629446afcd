import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// A pinned server that refuses the client's certificate. Under TLS 1.3 the client's side of the handshake ends before the
    /// server checks the client's certificate, so the refusal (the server's alert) arrives after the
    /// request was written, or while it is: it must be the error every time, and the request, which
    /// the server never read, must not be sent again on another connection.
    @Suite("Refused handshakes on pinned connections")
    struct RefusedHandshakeTests {
        typealias Guarded = TrustPolicyTests.Guarded

        /// How many requests each case sends.
        static let requests = 20

        /// The identity of a client certificate that `authority` signed.
        static func identity(of authority: TestCertificateAuthority) throws -> ClientIdentity {
            .pem(
                certificateChain: try TrustPolicyTests.contents(authority.clientCertificate),
                privateKey: try TrustPolicyTests.contents(authority.clientKey))
        }

        /// Sends `requests` requests one after another to a new server that requires a client
        /// certificate from `authority`, each refused: its alert's text is in every error, one
        /// connection each, and no request read.
        private static func expectRefusals(
            _ policy: TrustPolicy, authority: TestCertificateAuthority, alert: String
        ) async throws {
            let server = try TLSServer(authority: authority, requireClientCertificate: true)
            defer { server.stop() }
            let provider = Provider<Guarded>(transport: AsyncHTTPClientTransport())
            for index in 0..<requests {
                let refused = await capture {
                    try await provider.request(Guarded(baseURL: server.baseURL, trustPolicy: policy))
                }
                let failure = refused?.underlyingError as? TransportFailure
                #expect(failure?.kind == .secureConnectionFailed, "request \(index): \(String(describing: refused))")
                let text = failure.map { "\($0.underlyingError)" } ?? ""
                #expect(text.contains(alert), "request \(index): \(text)")
            }
            #expect(server.connectionCount == requests)
            #expect(server.requestCount == 0)
        }

        @Test("no client certificate, or one from another authority: the server's alert, one connection each")
        func pinned() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let stranger = try TestCertificateAuthority()
            defer { stranger.remove() }
            let anonymous = try PinningTests.pinnedToServer(authority)
            var foreign = anonymous
            foreign.clientIdentity = try Self.identity(of: stranger)
            try await Self.expectRefusals(anonymous, authority: authority, alert: "CERTIFICATE_REQUIRED")
            // The stranger's authority has the same name as the server's: BoringSSL finds it by name,
            // then its signature fails (`decrypt error`); another server would say `unknown CA`.
            try await Self.expectRefusals(foreign, authority: authority, alert: "TLSV1_ALERT_")
        }
    }
}
