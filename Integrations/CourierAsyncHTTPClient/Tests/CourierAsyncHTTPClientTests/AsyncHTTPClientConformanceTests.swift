import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// AsyncHTTPClientTransport against Courier's public conformance suite: the same cases as
    /// URLSessionTransport, with no exception.
    @Suite("Transport conformance: AsyncHTTPClientTransport")
    struct AsyncHTTPClientConformanceTests {
        static let suite = TransportConformance { AsyncHTTPClientTransport() }

        @Test("AsyncHTTPClientTransport conforms", arguments: TransportConformance.Case.allCases)
        func conforms(_ testCase: TransportConformance.Case) async throws {
            if let reason = Self.suite.exception(for: testCase) {
                await withKnownIssue(Comment(rawValue: reason)) { try await Self.suite.check(testCase) }
            } else {
                try await Self.suite.check(testCase)
            }
        }
    }
}
