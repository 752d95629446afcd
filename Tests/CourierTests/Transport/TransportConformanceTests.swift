import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TemporaryFilesSuite {
    /// URLSessionTransport against CourierTesting's public conformance suite, exactly as a
    /// transport's author runs it. Nested in the temporary-files suite: downloads pass through
    /// Courier's temporary files.
    @Suite("Transport conformance: URLSessionTransport")
    struct TransportConformanceTests {
        static let suite = TransportConformance { URLSessionTransport() }

        @Test("URLSessionTransport conforms", arguments: TransportConformance.Case.allCases)
        func urlSession(_ testCase: TransportConformance.Case) async throws {
            if let reason = Self.suite.exception(for: testCase) {
                await withKnownIssue(Comment(rawValue: reason)) { try await Self.suite.check(testCase) }
            } else {
                try await Self.suite.check(testCase)
            }
        }
    }
}

/// The conformance suite itself: a transport that breaks a rule fails the case that checks it,
/// with a message naming the case and what differed.
@Suite("Transport conformance catches")
struct TransportConformanceCatchesTests {
    /// Loses every response body.
    struct BodyDroppingTransport: Transport {
        let base = URLSessionTransport()
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let response = try await base.send(request)
            guard let http = response.response else { return response }
            return TransportResponse(response: http, data: Data())
        }
    }

    /// Throws for every status code over 399, as some HTTP clients do.
    struct ThrowingTransport: Transport {
        let base = URLSessionTransport()
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let response = try await base.send(request)
            if response.statusCode >= 400 { throw URLError(.badServerResponse) }
            return response
        }
    }

    /// Implements only `send`: its `stream` is the default, which waits for the whole body.
    struct WholeBodyTransport: Transport {
        let base = URLSessionTransport()
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            try await base.send(request)
        }
    }

    @Test("a transport that only returns whole bodies fails streamedHeadBeforeBody")
    func wholeBodiesOnly() async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance { WholeBodyTransport() }.check(.streamedHeadBeforeBody)
        }
        #expect(error?.description == "streamedHeadBeforeBody: the head came back only once the whole body had arrived")
    }

    @Test("a transport that drops bodies fails smallAndEmptyBodies, naming what differed")
    func droppedBody() async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance { BodyDroppingTransport() }.check(.smallAndEmptyBodies)
        }
        #expect(error?.testCase == .smallAndEmptyBodies)
        #expect(error?.description.hasPrefix("smallAndEmptyBodies: Hello World came back as 0 bytes") == true)
    }

    @Test("a transport that throws for a 404 fails statusCodes")
    func thrownStatus() async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance { ThrowingTransport() }.check(.statusCodes)
        }
        #expect(error?.description.contains("GET /404 threw") == true, "\(String(describing: error))")
    }
}
