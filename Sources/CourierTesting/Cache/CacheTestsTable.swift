import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs the private-cache cases of http-tests/cache-tests (as a table, ``CacheTestCase``)
/// through a provider with an `HTTPCache` on the transport you give, against a
/// ``LoopbackServer`` that plays each case's answers, on a clock the run controls: a case that
/// waits three seconds takes none.
///
/// ```swift
/// let table = try CacheTestsTable(json: Data(contentsOf: casesFile))
/// let report = try await table.run(on: URLSessionTransport())
/// print(report.summary)
/// ```
@_spi(CacheTests) public struct CacheTestsTable: Sendable {
    /// The cases, in the table's order.
    public let cases: [CacheTestCase]

    /// Reads a table: a JSON object whose `cases` are ``CacheTestCase``s.
    /// - Parameter json: The table.
    /// - Throws: A decoding error.
    public init(json: Data) throws {
        struct File: Decodable { let cases: [CacheTestCase] }
        cases = try JSONDecoder().decode(File.self, from: json).cases
    }

    /// Runs every case, one after another, each with a new cache.
    /// - Parameter transport: The engine under the providers that play the cases (a step that must
    ///   not follow redirects goes through a provider whose policy refuses them).
    /// - Returns: Each case's failures.
    /// - Throws: When the loopback server cannot start.
    public func run(on transport: any Transport) async throws -> CacheTestsReport {
        let plays = CasePlays()
        let server = try LoopbackServer { request in plays.answer(request) }
        defer { server.stop() }
        var results: [CacheTestsReport.Result] = []
        for (index, testCase) in cases.enumerated() {
            let play = CasePlay(testCase: testCase, index: index, base: server.baseURL)
            plays.add(play)
            let failures = await play.run(on: transport)
            results.append(.init(id: testCase.id, isRequired: testCase.isRequired, failures: failures))
        }
        return CacheTestsReport(results: results)
    }
}

/// What a run found.
@_spi(CacheTests) public struct CacheTestsReport: Sendable {
    /// One case's outcome.
    public struct Result: Sendable {
        /// The case's identifier.
        public let id: String
        /// Whether the suite requires it.
        public let isRequired: Bool
        /// What did not hold; empty when the case passed.
        public let failures: [String]
    }

    /// Every case's outcome, in the table's order.
    public let results: [Result]

    /// Required cases passed, of all required cases.
    public var required: (passed: Int, of: Int) { count(required: true) }
    /// Optional cases passed, of all optional cases.
    public var optional: (passed: Int, of: Int) { count(required: false) }

    /// One line per failed case, then the totals.
    public var summary: String {
        let lines = results.filter { !$0.failures.isEmpty }.map {
            "\($0.isRequired ? "required" : "optional") \($0.id): \($0.failures.joined(separator: "; "))"
        }
        return (lines + ["required \(required.passed)/\(required.of), optional \(optional.passed)/\(optional.of)"])
            .joined(separator: "\n")
    }

    private func count(required: Bool) -> (passed: Int, of: Int) {
        let chosen = results.filter { $0.isRequired == required }
        return (chosen.filter(\.failures.isEmpty).count, chosen.count)
    }
}
