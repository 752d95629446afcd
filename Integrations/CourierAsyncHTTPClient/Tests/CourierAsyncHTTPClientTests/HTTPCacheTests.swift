import Courier
import CourierAsyncHTTPClient
@_spi(CacheTests) import CourierTesting
import Foundation
import Testing

extension SerializedSuite {
    /// Courier's cache on AsyncHTTPClient, which has none of its own: the cache-tests table and
    /// the conformance suite's ETag case.
    @Suite("HTTP cache on AsyncHTTPClient")
    struct HTTPCacheTests {
        static let casesFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../Tests/CourierTests/Fixtures/cache-tests-cases.json").standardized

        @Test("the cache-tests table: every required case, at least 100 optional ones")
        func table() async throws {
            let table = try CacheTestsTable(json: Data(contentsOf: Self.casesFile))
            let report = try await table.run(on: AsyncHTTPClientTransport())
            let failedRequired = Set(report.results.filter { $0.isRequired && !$0.failures.isEmpty }.map(\.id))
            // An unknown Transfer-Encoding fails the exchange in the engine, before the cache.
            #expect(failedRequired.isSubset(of: ["headers-store-Transfer-Encoding"]), "\(report.summary)")
            #expect(report.optional.passed >= 100, "\(report.summary)")
        }

        @Test("six GETs of an ETag'd counter: one full answer, five 304s, the caller sees six 200s")
        func etagCase() async throws {
            let result = try await ETagCounter.runCase(on: AsyncHTTPClientTransport())

            #expect(result.answers == Array(repeating: "200 count 1", count: 6))
            #expect((result.fullAnswers, result.notModified) == (1, 5))
            #expect(result.outcomes.first == .miss)
            #expect(result.outcomes.dropFirst().allSatisfy { if case .revalidated = $0 { true } else { false } })
        }
    }
}
