import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

extension SerializedSuite {
    /// AsyncHTTPClientTransport's sockets against Courier's WebSocket conformance suite, with no
    /// exception.
    @Suite("WebSocket conformance: AsyncHTTPClientTransport")
    struct WebSocketConformanceTests {
        static let suite = WebSocketConformance { AsyncHTTPClientTransport() }

        @Test("AsyncHTTPClientTransport's sockets conform", arguments: WebSocketConformance.Case.allCases)
        func conforms(_ testCase: WebSocketConformance.Case) async throws {
            try await Self.suite.check(testCase)
        }
    }
}
