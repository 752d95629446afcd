import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The behaviour every Courier `Transport` must have, as cases that a transport's author runs
/// from their own test target, against ``LoopbackServer``s the cases start on 127.0.0.1.
///
/// ```swift
/// @Test(arguments: TransportConformance.Case.allCases)
/// func conforms(_ testCase: TransportConformance.Case) async throws {
///     try await TransportConformance { MyTransport() }.check(testCase)
/// }
/// ```
/// A case that fails throws a ``ConformanceFailure`` naming the case and what differed. A case a
/// transport cannot pass for a documented reason is an exception: list it with its reason in
/// ``exceptions`` and run it under your test framework's known-issue mechanism (Swift Testing's
/// `withKnownIssue`), so that it is reported, and noticed once it passes, rather than skipped.
public struct TransportConformance: Sendable {
    /// The cases this transport is known to fail, each with the documented reason.
    public var exceptions: [Case: String]
    /// The longest a cancellation may take to end `send`, in seconds; 50 ms by default.
    public var cancellationBound: TimeInterval = 0.05
    /// The size of the large response bodies (whole, and streamed to a slow reader), in bytes,
    /// rounded down to whole MiB; 100 MiB by default.
    public var largeBodySize = 100 << 20
    /// The most unread bytes a streamed body may hold in memory for a slow reader; 8 MiB by
    /// default (`TransportBody` keeps 4 MiB by default, then spills to a file).
    public var streamMemoryBound = 8 << 20
    private let makeTransport: @Sendable () -> any Transport

    /// Creates the suite for a transport.
    /// - Parameters:
    ///   - exceptions: The cases the transport is known to fail, each with its reason.
    ///   - makeTransport: Makes the transport under test; called once per case.
    public init(exceptions: [Case: String] = [:], makeTransport: @escaping @Sendable () -> any Transport) {
        self.exceptions = exceptions
        self.makeTransport = makeTransport
    }

    /// The documented reason the transport fails `testCase`, when it is an exception.
    /// - Parameter testCase: The case.
    /// - Returns: The reason, or `nil` when the transport must pass the case.
    public func exception(for testCase: Case) -> String? {
        exceptions[testCase]
    }

    /// Runs one case.
    /// - Parameter testCase: The case.
    /// - Throws: A ``ConformanceFailure`` naming the case and what differed.
    public func check(_ testCase: Case) async throws {
        let run = ConformanceRun(testCase: testCase, transport: makeTransport(), suite: self)
        try await run.perform()
    }
}
