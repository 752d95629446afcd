import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import NIOEmbedded
import NIOSSL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// Pins on AsyncHTTPClient, against TLS loopback servers certified by test authorities made for
    /// the run. A pinned host's requests go on a connection of Courier's own (HTTP/1.1), which
    /// validates the chain and then checks its keys; the test server answers `/` with the HTTP
    /// version it was asked in, so `HTTP/1.1` shows that connection and `HTTP/2.0`
    /// AsyncHTTPClient's.
    @Suite("Pins on AsyncHTTPClient")
    struct PinningTests {
        typealias Guarded = TrustPolicyTests.Guarded

        private static var provider: Provider<Guarded> { TrustPolicyTests.provider }

        /// A pin no certificate has.
        static func randomPin() -> String {
            "sha256/" + Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        }

        /// The pin of a PEM certificate file's key.
        static func pin(of certificate: URL) throws -> String {
            let first = try #require(try NIOSSLCertificate.fromPEMFile(certificate.path).first)
            return SPKIPin(subjectPublicKeyInfo: try first.extractPublicKey().toSPKIBytes()).description
        }

        /// A policy trusting `authority` alone, with `pins` for `host`.
        static func policy(
            _ authority: TestCertificateAuthority, host: String = "127.0.0.1", pins: [String], expires: Date? = nil
        ) throws -> TrustPolicy {
            var policy = TrustPolicy(roots: .only([try TrustPolicyTests.contents(authority.caCertificate)]))
            try policy.pin(host, to: pins, expires: expires)
            return policy
        }

        /// A policy trusting `authority` alone, pinned to its server certificate's key and a backup.
        static func pinnedToServer(_ authority: TestCertificateAuthority) throws -> TrustPolicy {
            try policy(authority, pins: [try pin(of: authority.serverCertificate), randomPin()])
        }

        private static func body(_ target: Guarded, on provider: Provider<Guarded> = provider) async throws -> String {
            let response = try await provider.request(target)
            return String(decoding: response.data, as: UTF8.self)
        }

        @Test("the server's key pinned, by address or by name, first or as the backup; or its authority's key")
        func rightKey() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let key = try Self.pin(of: authority.serverCertificate)
            let authorityKey = try Self.pin(of: authority.caCertificate)
            for pins in [[key, Self.randomPin()], [Self.randomPin(), key], [authorityKey, Self.randomPin()]] {
                let pinned = try Self.policy(authority, pins: pins)
                #expect(try await Self.body(Guarded(baseURL: server.baseURL, trustPolicy: pinned)) == "HTTP/1.1")
            }
            let byName = try Self.policy(authority, host: "localhost", pins: [key, Self.randomPin()])
            let named = try #require(URL(string: "https://localhost:\(server.port)"))
            #expect(try await Self.body(Guarded(baseURL: named, trustPolicy: byName)) == "HTTP/1.1")
            // The same policy, its pins expired: AsyncHTTPClient's connection, which speaks HTTP/2.
            let expired = try Self.policy(
                authority, pins: [Self.randomPin(), Self.randomPin()], expires: Date(timeIntervalSinceNow: -60))
            #expect(try await Self.body(Guarded(baseURL: server.baseURL, trustPolicy: expired)) == "HTTP/2.0")
        }

        @Test("a verified connection is kept for the next request with the same host and policy, and only for it")
        func connectionsKept() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let provider = Provider<Guarded>(transport: AsyncHTTPClientTransport())
            let key = try Self.pin(of: authority.serverCertificate)
            let pinned = try Self.policy(authority, pins: [key, Self.randomPin()])
            for _ in 0..<5 {
                #expect(
                    try await provider.request(Guarded(baseURL: server.baseURL, trustPolicy: pinned)).statusCode == 200)
            }
            #expect(server.connectionCount == 1)
            let other = try Self.policy(authority, pins: [key, Self.randomPin()])
            #expect(try await provider.request(Guarded(baseURL: server.baseURL, trustPolicy: other)).statusCode == 200)
            #expect(server.connectionCount == 2)
            // An answer that closes its connection: the next request makes a new one.
            let closing = Guarded(baseURL: server.baseURL, trustPolicy: pinned, path: "/close")
            #expect(try await provider.request(closing).statusCode == 200)
            #expect(try await provider.request(closing).statusCode == 200)
            #expect(try await provider.request(Guarded(baseURL: server.baseURL, trustPolicy: pinned)).statusCode == 200)
            #expect(server.connectionCount == 4)
        }

        @Test("200 pinned requests, 16 at a time: every one answered, connections reused")
        func concurrent() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let provider = Provider<Guarded>(transport: AsyncHTTPClientTransport())
            let pinned = try Self.pinnedToServer(authority)
            let target = Guarded(baseURL: server.baseURL, trustPolicy: pinned)
            let answered = await withTaskGroup(of: Int?.self) { group in
                var answered = 0
                for index in 0..<200 {
                    if index >= 16, let status = await group.next() { answered += status == 200 ? 1 : 0 }
                    group.addTask { try? await provider.request(target).statusCode }
                }
                for await status in group { answered += status == 200 ? 1 : 0 }
                return answered
            }
            #expect(answered == 200)
            #expect(server.requestCount == 200)
            #expect(server.connectionCount <= 100)
        }

        @Test("a client whose event loops cannot make socket connections (Network.framework's, on Apple platforms)")
        func loopsWithoutSockets() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let loop = NIOAsyncTestingEventLoop()
            let client = HTTPClient(eventLoopGroup: loop, configuration: AsyncHTTPClientTransport.configuration())
            let provider = Provider<Guarded>(transport: AsyncHTTPClientTransport(client: client))
            let pinned = try Self.pinnedToServer(authority)
            #expect(
                try await Self.body(Guarded(baseURL: server.baseURL, trustPolicy: pinned), on: provider) == "HTTP/1.1")
            try await client.shutdown()
            await loop.shutdownGracefully()
        }

        @Test("a leaf with another key fails with the chain's and the expected pins, reported, and nothing is sent")
        func wrongKey() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let other = try authority.issueServerCertificate("other")
            let server = try TLSServer(authority: authority, chain: [other.certificate], key: other.key)
            defer { server.stop() }
            let expected = [try Self.pin(of: authority.serverCertificate), Self.randomPin()]
            let reports = NIOLockedValueBox<[TrustFailure]>([])
            var pinned = try Self.policy(authority, pins: expected)
            pinned.report = { failure in reports.withLockedValue { $0.append(failure) } }
            let refused = await capture {
                try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: pinned))
            }
            guard case .pinMismatch(let host, let pins, let chain)? = refused?.underlyingError as? TrustFailure else {
                Issue.record("not a pin mismatch: \(String(describing: refused))")
                return
            }
            #expect(host == "127.0.0.1")
            #expect(Set(pins.map(\.description)) == Set(expected))
            let served = [try Self.pin(of: other.certificate), try Self.pin(of: authority.caCertificate)]
            #expect(chain.map(\.description) == served)
            #expect(refused?.localizedDescription.contains("Certificate pinning failure for 127.0.0.1!") == true)
            #expect(reports.withLockedValue { $0.count } == 1)
            #expect(server.requestCount == 0)
            // Reported only: the request goes, and the mismatch is reported again.
            pinned.reportsOnly = true
            #expect(try await Self.body(Guarded(baseURL: server.baseURL, trustPolicy: pinned)) == "HTTP/1.1")
            #expect(reports.withLockedValue { $0.count } == 2)
        }

        @Test("pins are checked against the validated chain, not against certificates the server adds to it")
        func presentedCertificatesAreNotTrusted() async throws {
            let pinned = try TestCertificateAuthority()
            defer { pinned.remove() }
            let other = try TestCertificateAuthority()
            defer { other.remove() }
            // A server certified by another trusted authority sends the pinned authority's
            // certificate along with its own (anyone can: it is public).
            let server = try TLSServer(
                authority: other, chain: [other.serverCertificate, pinned.caCertificate], key: other.serverKey)
            defer { server.stop() }
            var policy = TrustPolicy(
                roots: .only([
                    try TrustPolicyTests.contents(pinned.caCertificate),
                    try TrustPolicyTests.contents(other.caCertificate),
                ]))
            try policy.pin("127.0.0.1", to: [try Self.pin(of: pinned.caCertificate), Self.randomPin()])
            let refused = await capture {
                try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: policy))
            }
            guard case .pinMismatch(_, _, let chain)? = refused?.underlyingError as? TrustFailure else {
                Issue.record("not a pin mismatch: \(String(describing: refused))")
                return
            }
            #expect(!chain.map(\.description).contains(try Self.pin(of: pinned.caCertificate)))
            #expect(server.requestCount == 0)
        }

        @Test("a pinned key on a chain the roots do not trust is refused as an untrusted server")
        func untrustedChain() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            var systemRoots = TrustPolicy()
            try systemRoots.pin("127.0.0.1", to: [try Self.pin(of: authority.serverCertificate), Self.randomPin()])
            let refused = await capture {
                try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: systemRoots))
            }
            let failure = refused?.underlyingError as? TransportFailure
            #expect(failure?.kind == .secureConnectionFailed)
            #expect(failure.map { "\($0.underlyingError)" }?.contains("not trusted") == true)
            #expect(server.requestCount == 0)
        }

        @Test("a pinned server that requires a client certificate takes the policy's identity, and refuses without")
        func mutualTLS() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority, requireClientCertificate: true)
            defer { server.stop() }
            var pinned = try Self.pinnedToServer(authority)
            let anonymous = await capture {
                try await Self.provider.request(Guarded(baseURL: server.baseURL, trustPolicy: pinned))
            }
            // The server's alert (RefusedHandshakeTests), never a lost connection.
            #expect((anonymous?.underlyingError as? TransportFailure)?.kind == .secureConnectionFailed)
            pinned.clientIdentity = .pem(
                certificateChain: try TrustPolicyTests.contents(authority.clientCertificate),
                privateKey: try TrustPolicyTests.contents(authority.clientKey))
            #expect(try await Self.body(Guarded(baseURL: server.baseURL, trustPolicy: pinned)) == "HTTP/1.1")
        }

        @Test("each redirect hop takes its own host's pins: to a pinned host checked, to an unpinned one not")
        func redirects() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let named = try #require(URL(string: "https://localhost:\(server.port)"))
            let right = try Self.pinnedToServer(authority)
            let toUnpinned = Guarded(
                baseURL: server.baseURL, trustPolicy: right, path: "/redirect", headers: ["X-To": named.absoluteString])
            #expect(try await Self.body(toUnpinned) == "HTTP/2.0")
            let wrong = try Self.policy(authority, pins: [Self.randomPin(), Self.randomPin()])
            let toPinned = Guarded(
                baseURL: named, trustPolicy: wrong, path: "/redirect", headers: ["X-To": server.baseURL.absoluteString])
            let refused = await capture { try await Self.provider.request(toPinned) }
            guard case .pinMismatch(let host, _, _)? = refused?.underlyingError as? TrustFailure else {
                Issue.record("not a pin mismatch: \(String(describing: refused))")
                return
            }
            #expect(host == "127.0.0.1")
            #expect(server.requestCount == 3)
        }

        @Test("bodies both ways on the pinned connection: memory, a file, a stream read as it comes")
        func bodies() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let pinned = try Self.pinnedToServer(authority)
            let sent = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let echoed = try await Self.provider.request(
                Guarded(
                    baseURL: server.baseURL, trustPolicy: pinned, path: "/echo", method: .post, task: .requestData(sent)
                ))
            #expect(echoed.data == sent)
            let file = authority.folder.appendingPathComponent("upload.bin")
            try sent.write(to: file)
            let uploaded = try await Self.provider.request(
                Guarded(
                    baseURL: server.baseURL, trustPolicy: pinned, path: "/echo", method: .put, task: .uploadFile(file)))
            #expect(uploaded.data == sent)
            let streamed = try await Self.provider.stream(
                Guarded(baseURL: server.baseURL, trustPolicy: pinned, path: "/bytes/\(16 << 20)"))
            var received = 0
            for try await chunk in streamed.body { received += chunk.count }
            #expect(received == 16 << 20)
        }

        @Test("a pinned host that refuses the connection: cannotConnect, as on every engine")
        func refused() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            let closed = server.baseURL
            server.stop()
            let pinned = try Self.policy(authority, pins: [Self.randomPin(), Self.randomPin()])
            let refused = await capture {
                try await Self.provider.request(Guarded(baseURL: closed, trustPolicy: pinned))
            }
            #expect((refused?.underlyingError as? TransportFailure)?.kind == .cannotConnect)
        }

        @Test("a streamed body that fails while it is sent ends the pinned request at once, with its error")
        func failingBody() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let pinned = try Self.pinnedToServer(authority)
            let stream = UploadStream(length: 1 << 20, replayable: false) {
                AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data(count: 1024))
                    continuation.finish(
                        throwing: URLError(.cannotOpenFile, userInfo: [NSLocalizedDescriptionKey: "the disk went away"])
                    )
                }
            }
            let target = Guarded(
                baseURL: server.baseURL, trustPolicy: pinned, path: "/echo", method: .post, task: .uploadStream(stream))
            let started = ContinuousClock.now
            let failed = await capture { try await Self.provider.request(target) }
            #expect("\(String(describing: failed))".contains("the disk went away"))
            #expect(ContinuousClock.now - started < .seconds(5))
        }

        @Test("a pinned request that gets no answer ends at its timeout, and a cancelled one at once")
        func timeoutAndCancellation() async throws {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let server = try TLSServer(authority: authority)
            defer { server.stop() }
            let pinned = try Self.pinnedToServer(authority)
            let provider = Provider<Stalled>(transport: AsyncHTTPClientTransport())
            let started = ContinuousClock.now
            let timedOut = await capture {
                try await provider.request(Stalled(baseURL: server.baseURL, trustPolicy: pinned))
            }
            #expect((timedOut?.underlyingError as? TransportFailure)?.kind == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(5))
            let task = Task {
                try await provider.request(Stalled(baseURL: server.baseURL, trustPolicy: pinned, timeout: nil))
            }
            let waiting = ContinuousClock.now
            while server.requestCount < 2, ContinuousClock.now - waiting < .seconds(10) {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(server.requestCount == 2)
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(throws: CourierError.self) { try result.get() }
            #expect(ContinuousClock.now - cancelled < .seconds(1))
        }
    }

    /// A request the test server never answers.
    private struct Stalled: TargetType {
        let baseURL: URL
        var trustPolicy: TrustPolicy?
        var timeout: TimeInterval? = 0.3
        var path: String { "/stall" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var timeoutInterval: TimeInterval? { timeout }
    }
}
