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

        /// Requests that need nothing per chunk take URLSession's completion-handler route; with a
        /// progress observer, every request takes the delegate route, which must conform as well.
        static let delegateRoute = TransportConformance { ProgressObserving(base: URLSessionTransport()) }

        @Test("URLSessionTransport conforms on its delegate route", arguments: TransportConformance.Case.allCases)
        func urlSessionDelegateRoute(_ testCase: TransportConformance.Case) async throws {
            if let reason = Self.delegateRoute.exception(for: testCase) {
                await withKnownIssue(Comment(rawValue: reason)) { try await Self.delegateRoute.check(testCase) }
            } else {
                try await Self.delegateRoute.check(testCase)
            }
        }
    }
}

/// A transport that asks for progress on every request, which sends it through
/// `URLSessionTransport`'s delegate route.
struct ProgressObserving: Transport {
    let base: URLSessionTransport

    var capabilities: TransportCapabilities { base.capabilities }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await base.send(observed(request))
    }

    private func observed(_ request: TransportRequest) -> TransportRequest {
        var observed = request
        if observed.progress == nil { observed.progress = { _ in } }
        return observed
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

    /// Implements only `send`, and declares no capability: its `stream` is the default, which
    /// waits for the whole body, and its timeouts are left to Courier.
    struct WholeBodyTransport: Transport {
        let base = URLSessionTransport()
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var untimed = request
            untimed.timeout = nil
            // Asked for a stream, it gives the whole body in memory.
            if untimed.delivery == .stream { untimed.delivery = .memory }
            return try await base.send(untimed)
        }
    }

    @Test("a transport that only returns whole bodies fails streamedHeadBeforeBody")
    func wholeBodiesOnly() async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance { WholeBodyTransport() }.check(.streamedHeadBeforeBody)
        }
        #expect(error?.description == "streamedHeadBeforeBody: the head came back only once the whole body had arrived")
    }

    /// Declares that it enforces timeouts, and does not.
    struct TimeoutClaimingTransport: Transport {
        let base = WholeBodyTransport()
        var capabilities: TransportCapabilities { .timeouts }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            var untimed = request
            untimed.timeout = nil
            return try await base.send(untimed)
        }
    }

    @Test("a transport that returns whole bodies holds a slow reader's body in memory: streamedSlowConsumer fails")
    func wholeBodyInMemory() async throws {
        var suite = TransportConformance { WholeBodyTransport() }
        suite.largeBodySize = 16 << 20
        let error = await #expect(throws: ConformanceFailure.self) { try await suite.check(.streamedSlowConsumer) }
        #expect(
            error?.description
                == "streamedSlowConsumer: the body held 16384 KiB in memory for a slow reader (bound 8192 KiB)")
    }

    @Test("a transport that leaves timeouts to Courier still times out: the provider's limit applies")
    func timeoutsLeftToCourier() async throws {
        try await TransportConformance { WholeBodyTransport() }.check(.stallTimesOut)
    }

    @Test("a transport that claims to enforce timeouts and does not fails stallTimesOut")
    func falseTimeoutClaim() async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await TransportConformance { TimeoutClaimingTransport() }.check(.stallTimesOut)
        }
        #expect(error?.description.contains("had not fired after 5.5 s") == true, "\(String(describing: error))")
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
