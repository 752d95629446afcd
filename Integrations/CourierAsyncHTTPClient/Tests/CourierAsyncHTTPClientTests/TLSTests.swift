import AsyncHTTPClient
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
    /// TLS through the client's configuration: a test certificate authority trusted or not, a
    /// client certificate, and HTTP/2 negotiated with a server that offers it.
    @Suite("TLS and HTTP/2 on AsyncHTTPClient")
    struct TLSTests {
        /// A client trusting the test authority, with a client certificate when asked.
        private func client(
            _ authority: TestCertificateAuthority, clientCertificate: Bool = false, http1Only: Bool = false
        ) throws -> HTTPClient {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(authority.caCertificate.path)
            if clientCertificate {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(authority.clientCertificate.path).map {
                    .certificate($0)
                }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: authority.clientKey.path, format: .pem))
            }
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.tlsConfiguration = tls
            if http1Only { configuration.httpVersion = .http1Only }
            return HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.configuration(configuration))
        }

        private func version(through client: HTTPClient, _ server: TLSServer) async throws -> String {
            let provider = Provider<Plain>(transport: AsyncHTTPClientTransport(client: client))
            return try await provider.request(Plain(baseURL: server.baseURL)).mapString()
        }

        @Test("a server certified by a trusted test authority answers over HTTP/2; http1Only keeps HTTP/1.1")
        func trustedAndHTTP2() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let http2 = try client(authority)
            let http1 = try client(authority, http1Only: true)

            let negotiated = await Result(catching: { try await version(through: http2, server) })
            let forced = await Result(catching: { try await version(through: http1, server) })
            try await http2.shutdown()
            try await http1.shutdown()

            #expect(try negotiated.get() == "HTTP/2.0")
            #expect(try forced.get() == "HTTP/1.1")
        }

        @Test("without the authority in its trust roots, the server is refused as a secure-connection failure")
        func untrustedRefused() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }

            let error = await capture {
                try await Provider<Plain>(transport: AsyncHTTPClientTransport()).request(Plain(baseURL: server.baseURL))
            }

            guard case .transport(let underlying, _)? = error else {
                Issue.record("expected .transport(secureConnectionFailed), got \(String(describing: error))")
                return
            }
            #expect((underlying as? TransportFailure)?.kind == .secureConnectionFailed, "\(underlying)")
        }

        @Test("a server that asks for a client certificate gets the configured one, and refuses a client without")
        func clientCertificate() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority, requireClientCertificate: true)
            defer { server.stop() }
            let withCertificate = try client(authority, clientCertificate: true)
            let without = try client(authority)

            let accepted = await Result(catching: { try await version(through: withCertificate, server) })
            let refused = await Result(catching: { try await version(through: without, server) })
            try await withCertificate.shutdown()
            try await without.shutdown()

            #expect(try accepted.get() == "HTTP/2.0")
            guard case .failure(let error) = refused, case .transport(let underlying, _)? = error as? CourierError
            else {
                Issue.record("a client without a certificate was answered: \(refused)")
                return
            }
            let kind = (underlying as? TransportFailure)?.kind
            #expect(kind == .secureConnectionFailed || kind == .connectionLost, "\(underlying)")
        }
    }
}

/// A GET of a server's root.
struct Plain: TargetType {
    let baseURL: URL
    var path: String { "/" }
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
    var validationType: ValidationType { .successCodes }
}

extension Result where Failure == any Error {
    /// The result of an asynchronous throwing operation.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
