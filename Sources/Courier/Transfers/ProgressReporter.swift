/// Turns a request's transfer reports into ``ProgressResponse``s that only ever grow, whatever
/// the attempts do, and hands them to the caller.
final class ProgressReporter: Sendable {
    private struct State {
        var fraction = 0.0
        var bytes: Int64 = 0
        var expected: Int64?
    }

    private let direction: TransferProgress.Direction
    private let handler: @Sendable (ProgressResponse) -> Void
    private let deliveredBefore: (@Sendable () async -> Void)?
    private let state = Locked(State())

    /// - Parameters:
    ///   - direction: The direction reported: uploads report what they send, others what they receive.
    ///   - handler: Receives each report.
    ///   - deliveredBefore: Returns once every report handed to `handler` so far has reached the
    ///     caller (for a handler that hops to a queue); `nil` when `handler` delivers at once.
    init(
        direction: TransferProgress.Direction, handler: @escaping @Sendable (ProgressResponse) -> Void,
        deliveredBefore: (@Sendable () async -> Void)? = nil
    ) {
        self.direction = direction
        self.handler = handler
        self.deliveredBefore = deliveredBefore
    }

    /// Returns once every report so far has reached the caller, so that none arrives after
    /// `didReceive`.
    func flush() async {
        await deliveredBefore?()
    }

    /// Passes `progress` on when it moves the request forward.
    func report(_ progress: TransferProgress) {
        guard progress.direction == direction else { return }
        let fraction = progress.fractionCompleted
        let forward = state.withLock { state in
            guard fraction > state.fraction || (fraction == state.fraction && progress.completedBytes > state.bytes)
            else { return false }
            (state.fraction, state.bytes, state.expected) = (fraction, progress.completedBytes, progress.expectedBytes)
            return true
        }
        if forward {
            handler(
                ProgressResponse(
                    progress: fraction, completedBytes: progress.completedBytes, expectedBytes: progress.expectedBytes))
        }
    }

    /// Reports completion with the response.
    func finish(with response: Response) {
        let (bytes, expected) = state.withLock { ($0.bytes, $0.expected) }
        let completed = max(bytes, Int64(response.data.count))
        handler(
            ProgressResponse(
                progress: 1, completedBytes: completed, expectedBytes: expected ?? completed, response: response))
    }
}
