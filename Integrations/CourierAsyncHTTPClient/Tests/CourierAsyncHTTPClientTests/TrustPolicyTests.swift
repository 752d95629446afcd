import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOSSL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// A trust policy on AsyncHTTPClient, against TLS loopback servers certified by a test
    /// authority made for the run: a private root (alone, or with the system's), a client
    /// certificate. Pins: PinningTests.
    @Suite("Trust policy on AsyncHTTPClient")
    struct TrustPolicyTests {
        /// A GET of a server's root under a trust policy.
        struct Guarded: TargetType {
            let baseURL: URL
            var trustPolicy: TrustPolicy?
            var path = "/"
            var method = HTTPMethod.get
            var task = HTTPTask.requestPlain
            var headers: [String: String]?
            var validationType: ValidationType { .successCodes }
        }

        static let provider = Provider<Guarded>(transport: AsyncHTTPClientTransport())

        static func contents(_ url: URL) throws -> Data { try Data(contentsOf: url) }

        @Test("a private root in the policy, alone or with the system's, trusts the test server; none does not")
        func privateRoot() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let root = try Self.contents(authority.caCertificate)
            for roots in [TrustPolicy.Roots.only([root]), .systemAnd([root])] {
                let answer = try await Self.provider.request(
                    Guarded(baseURL: server.baseURL, trustPolicy: TrustPolicy(roots: roots)))
                #expect(answer.statusCode == 200)
            }
            let refused = await capture { try await Self.provider.request(Guarded(baseURL: server.baseURL)) }
            #expect((refused?.underlyingError as? TransportFailure)?.kind == .secureConnectionFailed)
        }

        @Test("a server that requires a client certificate accepts the policy's identity, and refuses without")
        func clientIdentity() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority, requireClientCertificate: true)
            defer { server.stop() }
            let root = try Self.contents(authority.caCertificate)
            let identity = ClientIdentity.pem(
                certificateChain: try Self.contents(authority.clientCertificate),
                privateKey: try Self.contents(authority.clientKey))
            let mutual = TrustPolicy(roots: .only([root]), clientIdentity: identity)
            #expect(
                try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: mutual)).statusCode == 200
            )
            let anonymous = await capture {
                try await Self.provider.request(
                    Guarded(baseURL: server.baseURL, trustPolicy: TrustPolicy(roots: .only([root]))))
            }
            let kind = (anonymous?.underlyingError as? TransportFailure)?.kind
            #expect(kind == .secureConnectionFailed || kind == .connectionLost)
        }

        @Test("a root that is not a certificate is a clear error, and nothing is sent")
        func unusableRoot() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let garbage = TrustPolicy(roots: .only([Data("not a certificate".utf8)]))
            var pinned = garbage
            try pinned.pin("127.0.0.1", to: [PinningTests.randomPin(), PinningTests.randomPin()])
            for policy in [garbage, pinned] {
                let unusable = await capture {
                    try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: policy))
                }
                guard case .unusableCertificate? = unusable?.underlyingError as? TrustFailure else {
                    Issue.record("not a certificate error: \(String(describing: unusable))")
                    return
                }
            }
            #expect(server.requestCount == 0)
        }

        @Test(
            "the Security article's openssl one-liner and SPKIPin(certificate:) give the pin of the certificate's key")
        func documentedOneLiner() throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let certificate = try #require(try NIOSSLCertificate.fromPEMFile(authority.serverCertificate.path).first)
            let pin = SPKIPin(subjectPublicKeyInfo: try certificate.extractPublicKey().toSPKIBytes())
            let process = Process()
            let output = Pipe()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c",
                "openssl x509 -in '\(authority.serverCertificate.path)' -pubkey -noout | openssl pkey -pubin -outform der"
                    + " | openssl dgst -sha256 -binary | openssl base64",
            ]
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(try SPKIPin("sha256/" + printed.trimmingCharacters(in: .whitespacesAndNewlines)) == pin)
            // And the pin Courier reads from the certificate file itself.
            #expect(try SPKIPin(certificate: Self.contents(authority.serverCertificate)) == pin)
        }
    }
}
