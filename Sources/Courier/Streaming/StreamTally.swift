import Foundation

/// Counts what a streamed body hands to its reader and tells the plugins once, when the body
/// ends: at its end, at a failure, or when the last reference to it goes (the reader stopped).
/// It also reports the reader's progress, chunk by chunk.
final class StreamTally: Sendable {
    private struct State {
        var bytes: Int64 = 0
        var events: Int?
        var ended = false
    }

    private let state = Locked(State())
    private let stopwatch = Stopwatch()
    private let requestID: RequestID
    private let connection: Int
    private let response: Response
    private let expectedBytes: Int64?
    private let progress: (@Sendable (ProgressResponse) -> Void)?
    private let report: @Sendable (StreamSummary) -> Void

    /// Starts counting when the head is accepted.
    /// - Parameters:
    ///   - requestID: The request's identifier.
    ///   - connection: Which connection of an event source the stream is (1 for a plain stream).
    ///   - response: The accepted head.
    ///   - progress: Receives a report for each chunk read, and a last one at the end.
    ///   - report: Receives the summary, once.
    init(
        requestID: RequestID, connection: Int = 1, response: Response,
        progress: (@Sendable (ProgressResponse) -> Void)?,
        report: @escaping @Sendable (StreamSummary) -> Void
    ) {
        self.requestID = requestID
        self.connection = connection
        self.response = response
        self.progress = progress
        self.report = report
        let length = response.headerFields["Content-Length"].flatMap { Int64($0) }
        expectedBytes = length.flatMap { $0 >= 0 ? $0 : nil }
    }

    deinit {
        end(.stopped)
    }

    /// A chunk of `count` bytes reached the reader.
    func received(_ count: Int) {
        let total = state.withLock { state in
            state.bytes += Int64(count)
            return state.bytes
        }
        guard let progress else { return }
        let fraction = expectedBytes.map { $0 > 0 ? min(1, Double(total) / Double($0)) : 0 } ?? 0
        progress(ProgressResponse(progress: fraction, completedBytes: total, expectedBytes: expectedBytes))
    }

    /// An event reached the reader.
    func countEvent() {
        state.withLock { $0.events = ($0.events ?? 0) + 1 }
    }

    /// The body is read as events: its summary counts them, even when there are none.
    func countsEvents() {
        state.withLock { $0.events = $0.events ?? 0 }
    }

    /// The stream ended; only the first call reports.
    func end(_ outcome: StreamSummary.Outcome) {
        let counts: State? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state
        }
        guard let counts else { return }
        if case .completed = outcome, let progress {
            progress(
                ProgressResponse(
                    progress: 1, completedBytes: counts.bytes, expectedBytes: expectedBytes, response: response))
        }
        report(
            StreamSummary(
                requestID: requestID, response: response, bytes: counts.bytes, events: counts.events,
                duration: stopwatch.elapsed, outcome: outcome, connection: connection))
    }
}
