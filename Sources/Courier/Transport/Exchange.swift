import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request and its response as they pass through ``URLSessionTransport``: the buffered body,
/// the response, the continuation that is resumed exactly once, and the task to cancel.
final class Exchange: Sendable {
    private struct State {
        var continuation: CheckedContinuation<TransportResponse, any Error>?
        var task: URLSessionTask?
        var cancelRequested = false
        var response: HTTPURLResponse?
        var challengeResponse: HTTPURLResponse?
        var body = Data()
    }

    /// The largest body size reserved up front from a `Content-Length`; larger bodies grow as
    /// they arrive, so a lying header cannot make Courier allocate gigabytes at once.
    private static let maximumReservation = 16 << 20

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<TransportResponse, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Remembers the running task; cancels it at once if cancellation came first.
    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
    }

    func receive(_ response: HTTPURLResponse) {
        // Interim 1xx responses (100 Continue) are not the answer; wait for the final one.
        guard response.statusCode >= 200 || response.statusCode == 101 else { return }
        let expected = response.expectedContentLength
        state.withLock { state in
            state.response = response
            state.body = Data()
            if expected > 0 { state.body.reserveCapacity(Int(min(expected, Int64(Self.maximumReservation)))) }
        }
    }

    func receive(_ data: Data) {
        state.withLock { $0.body.append(data) }
    }

    /// Records the 401 of a challenge Courier declined, to return it as the response.
    func declineChallenge(with response: URLResponse?) {
        state.withLock { $0.challengeResponse = response as? HTTPURLResponse }
    }

    /// Resumes the continuation with the outcome of the task; later calls do nothing.
    func complete(with error: (any Error)?, response taskResponse: URLResponse?) {
        let (continuation, outcome) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, Self.outcome(of: state, error: error, taskResponse: taskResponse))
        }
        continuation?.resume(with: outcome)
    }

    private static func outcome(
        of state: State, error: (any Error)?, taskResponse: URLResponse?
    ) -> Result<TransportResponse, any Error> {
        if let error {
            // A challenge Courier declined ends the task as cancelled; unless the caller cancelled,
            // the answer is the 401 that carried the challenge.
            if let challenged = state.challengeResponse, !state.cancelRequested {
                return .success(TransportResponse(response: challenged, data: Data()))
            }
            return .failure(error)
        }
        guard let response = state.response ?? taskResponse as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        return .success(TransportResponse(response: response, data: state.body))
    }
}
