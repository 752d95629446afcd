import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A plugin that records each of its hook calls in a ``CallRecorder`` and changes nothing,
/// unless told to fail `prepare`.
///
/// ```swift
/// let recorder = CallRecorder()
/// let provider = Provider<API>(plugins: [RecordingPlugin("P1", recorder: recorder)])
/// ```
public struct RecordingPlugin: PluginType {
    /// The name events are recorded under.
    public let name: String
    /// Where events go.
    public let recorder: CallRecorder
    /// Whether the per-attempt observations (`willTransmit`, `didCompleteAttempt`) are recorded.
    public let observesAttempts: Bool
    private let prepareError: (@Sendable (Int) -> (any Error)?)?
    private let attempts = Locked(0)

    /// Creates a recording plugin.
    /// - Parameters:
    ///   - name: The name events are recorded under.
    ///   - recorder: Where events go.
    ///   - observesAttempts: Whether to record `willTransmit` and `didCompleteAttempt` too; `false`
    ///     by default, so a sequence reads as Moya's hooks.
    ///   - prepareError: Returns the error `prepare` throws on the given call (1, 2, …), or `nil`
    ///     to let it succeed; `prepare` always succeeds by default.
    public init(
        _ name: String, recorder: CallRecorder, observesAttempts: Bool = false,
        prepareError: (@Sendable (_ call: Int) -> (any Error)?)? = nil
    ) {
        self.name = name
        self.recorder = recorder
        self.observesAttempts = observesAttempts
        self.prepareError = prepareError
    }

    /// Records `prepare` and returns the request, or throws the configured error.
    public func prepare(_ request: URLRequest, target: any TargetType) async throws -> URLRequest {
        recorder.record(.prepare(name))
        let call = attempts.withLock { count in
            count += 1
            return count
        }
        if let error = prepareError?(call) { throw error }
        return request
    }

    /// Records `willSend`.
    public func willSend(_ request: PreparedRequest, target: any TargetType) {
        recorder.record(.willSend(name, attempt: request.attempt))
    }

    /// Records `willTransmit`, when observing attempts.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        if observesAttempts { recorder.record(.willTransmit(name, attempt: request.attempt)) }
    }

    /// Records `didCompleteAttempt`, when observing attempts.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        guard observesAttempts else { return }
        let result: HookEvent.Outcome =
            switch outcome.result {
            case .success(let response): .success(response.statusCode)
            case .failure(let error): .init(error)
            }
        recorder.record(.didCompleteAttempt(name, attempt: outcome.attempt, result))
    }

    /// Records `didReceive`.
    public func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
        recorder.record(.didReceive(name, .init(result)))
    }

    /// Records `process` and returns the result unchanged.
    public func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
        Response, CourierError
    > {
        recorder.record(.process(name, .init(result)))
        return result
    }

    /// Records `didFinishStream`.
    /// - Parameters:
    ///   - summary: What the stream did.
    ///   - target: The target.
    public func didFinishStream(_ summary: StreamSummary, target: any TargetType) {
        recorder.record(.didFinishStream(name, .init(summary.outcome)))
    }

    /// Records `didRefreshCredential`.
    /// - Parameters:
    ///   - refresh: The refresh that ran.
    ///   - target: The target that started it.
    public func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {
        recorder.record(.didRefreshCredential(name, succeeded: refresh.succeeded))
    }

    /// Records `didObserve`.
    /// - Parameters:
    ///   - activity: What the socket did.
    ///   - target: The socket's target.
    public func didObserve(_ activity: WebSocketActivity, target: any TargetType) {
        recorder.record(.webSocket(name, .init(activity.kind)))
    }

    /// Records `didObserve` of an outbox.
    /// - Parameters:
    ///   - activity: What the outbox did.
    ///   - target: The entry's target.
    public func didObserve(_ activity: OutboxActivity, target: (any TargetType)?) {
        recorder.record(.outbox(name, activity.kind))
    }
}
