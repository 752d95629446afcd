/// A ``TransportConformance`` case the transport did not pass: which case, and what differed.
public struct ConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The case.
    public let testCase: TransportConformance.Case
    /// What the transport did, against what the case expects.
    public let difference: String

    /// Creates a failure.
    /// - Parameters:
    ///   - testCase: The case.
    ///   - difference: What differed.
    public init(testCase: TransportConformance.Case, difference: String) {
        self.testCase = testCase
        self.difference = difference
    }

    /// For example `redirectCrossOrigin: Authorization reached the other origin`.
    public var description: String {
        "\(testCase.rawValue): \(difference)"
    }
}
