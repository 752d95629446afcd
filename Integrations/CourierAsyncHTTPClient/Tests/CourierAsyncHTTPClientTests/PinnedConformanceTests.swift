import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// The transport conformance suite on the connection AsyncHTTPClientTransport makes for a
    /// pinned host: each case's plain loopback server is reached through a TLS relay certified by
    /// a test authority, with every request pinned to the relay's key. One case cannot pass through
    /// a relay, which accepts the connection before it knows its server refuses it; the pinned
    /// connection's refusal is tested directly (PinningTests).
    @Suite("Transport conformance: pinned connections of AsyncHTTPClientTransport")
    struct PinnedConformanceTests {
        static let suite = TransportConformance(
            exceptions: [
                .connectionRefused:
                    "the relay accepts the connection, then closes it when its server refuses: a TLS handshake cut short"
            ]
        ) { PinnedThroughRelay.shared }

        @Test("a pinned connection conforms", arguments: TransportConformance.Case.allCases)
        func conforms(_ testCase: TransportConformance.Case) async throws {
            if let reason = Self.suite.exception(for: testCase) {
                await withKnownIssue(Comment(rawValue: reason)) { try await Self.suite.check(testCase) }
            } else {
                try await Self.suite.check(testCase)
            }
        }
    }
}

/// AsyncHTTPClientTransport with every request sent to 127.0.0.1 over TLS through a ``TLSRelay``
/// for its port, pinned to the relay's key; the answer's URL is the one asked.
private struct PinnedThroughRelay: Transport {
    static let shared = PinnedThroughRelay()

    private let base = AsyncHTTPClientTransport()
    private let authority: TestCertificateAuthority?
    private let policy: TrustPolicy?
    private let relays = NIOLockedValueBox<[Int: TLSRelay]>([:])

    init() {
        authority = try? TestCertificateAuthority()
        policy = authority.flatMap { authority in
            guard let root = try? Data(contentsOf: authority.caCertificate),
                let key = try? SerializedSuite.PinningTests.pin(of: authority.serverCertificate)
            else { return nil }
            var policy = TrustPolicy(roots: .only([root]))
            try? policy.pin("127.0.0.1", to: [key, SerializedSuite.PinningTests.randomPin()])
            return policy
        }
    }

    var capabilities: TransportCapabilities { base.capabilities }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let authority, let policy, let asked = request.urlRequest.url,
            var parts = URLComponents(
                url: asked, resolvingAgainstBaseURL: false), let port = parts.port
        else { throw TransportFailure(kind: .badURL, underlyingError: URLError(.badURL)) }
        let relay = try relays.withLockedValue { relays in
            if let relay = relays[port] { return relay }
            let relay = try TLSRelay(to: port, authority: authority)
            relays[port] = relay
            return relay
        }
        parts.scheme = "https"
        parts.port = relay.port
        var relayed = request
        relayed.urlRequest.url = parts.url
        relayed.trust = policy
        let response = try await base.send(relayed)
        return Self.answer(response, for: asked)
    }

    /// `response` with the URL asked instead of the relay's.
    private static func answer(_ response: TransportResponse, for url: URL) -> TransportResponse {
        var answer: TransportResponse
        if let stream = response.stream {
            answer = TransportResponse(
                statusCode: response.statusCode, headerFields: response.headerFields, url: url, stream: stream)
        } else {
            answer = TransportResponse(
                statusCode: response.statusCode, headerFields: response.headerFields, url: url, data: response.data,
                fileURL: response.fileURL)
        }
        answer.resends = response.resends
        answer.protocolVersion = response.protocolVersion
        return answer
    }
}
