import Foundation

/// Bytes moved so far by one attempt, as a transport reports them.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    ///
    /// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
    public enum Direction: Sendable, Hashable {
        /// The request body, being sent.
        case upload
        /// The response body, being received.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// Bytes moved so far, counted by Courier (URLSession's own counters stay 0 on Linux).
    public var completedBytes: Int64
    /// The total, or `nil` when it is unknown (no `Content-Length`, or a compressed body).
    public var expectedBytes: Int64?

    /// Creates a progress report.
    /// - Parameters:
    ///   - direction: Which way the bytes go.
    ///   - completedBytes: Bytes moved so far.
    ///   - expectedBytes: The total, if known.
    public init(direction: Direction, completedBytes: Int64, expectedBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// `completedBytes / expectedBytes` between 0 and 1, or 0 when the total is unknown.
    public var fractionCompleted: Double {
        guard let expectedBytes, expectedBytes > 0 else { return 0 }
        return min(1, max(0, Double(completedBytes) / Double(expectedBytes)))
    }
}

/// A request's progress as its caller sees it: a fraction that only grows, the byte counts, and,
/// in the last report, the response.
public struct ProgressResponse: Sendable {
    /// From 0 to 1; 1 in the last report. It never goes back, not even when an attempt is retried.
    public let progress: Double
    /// Bytes moved so far (sent for uploads, received otherwise).
    public let completedBytes: Int64
    /// The total, or `nil` when it is unknown.
    public let expectedBytes: Int64?
    /// The response, in the last report only.
    public let response: Response?

    /// Creates a progress report.
    /// - Parameters:
    ///   - progress: From 0 to 1.
    ///   - completedBytes: Bytes moved so far.
    ///   - expectedBytes: The total, if known.
    ///   - response: The response, in the last report.
    public init(progress: Double, completedBytes: Int64, expectedBytes: Int64?, response: Response? = nil) {
        self.progress = progress
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.response = response
    }

    /// Whether this is the last report, carrying the response.
    public var isCompleted: Bool { response != nil }

    /// Moya's name of ``isCompleted``.
    @available(*, deprecated, renamed: "isCompleted")
    public var completed: Bool { isCompleted }

    /// Moya's `progressObject`: a new `Progress` with this report's counts (bytes; a unit count
    /// of -1, indeterminate, when the total is unknown). Courier keeps no `Progress` of its own:
    /// it is not `Sendable`.
    @available(*, deprecated, message: "Use progress, completedBytes and expectedBytes.")
    public var progressObject: Progress? {
        let object = Progress(totalUnitCount: expectedBytes ?? -1)
        object.completedUnitCount = completedBytes
        return object
    }
}
