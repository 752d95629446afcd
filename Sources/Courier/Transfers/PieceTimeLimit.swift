import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The time limit of a resumable download's pieces over an engine that does not enforce
/// ``TransportRequest/timeout`` itself (one without ``TransportCapabilities/timeouts``). The pieces
/// are streamed requests, which ``TimeLimitStage`` leaves to their reader; ``ResumeStage`` is that
/// reader. The target's `timeoutInterval` bounds each wait, as URLSession's
/// `timeoutIntervalForRequest` does: for the head of each piece, then for every next chunk of its
/// body. A download that keeps receiving is never cut however long it takes; one that stalls
/// fails with ``TransportFailure/Kind/timedOut`` and keeps what arrived, to resume.
struct PieceTimeLimit: Sendable {
    /// The limits of the attempt, when a stage needs them (a policy, or the provider's own clock).
    private let timeouts: Timeouts?
    /// The attempt's limit when there are no ``timeouts``; `nil` when the engine enforces it.
    private let seconds: TimeInterval?
    /// The clock the limit sleeps on, or `nil` for the system's.
    private let clock: (any ProviderClock)?
    /// The provider's timer for limits on the system's clock.
    private let timers: DeadlineTimers?

    /// The limit of the pieces of `request`, sent through `context`'s engine.
    init(_ request: TransportRequest, _ context: ExchangeContext) {
        let enforced = context.engine.capabilities.contains(.timeouts) || request.timeout == nil
        timeouts = enforced ? nil : context.timeouts
        seconds = enforced ? nil : request.timeout
        clock = context.limitClock
        timers = context.timers
    }

    /// The longest the next wait may take: the idle limit, or what is left of the request's
    /// deadline when that is shorter; `nil` when the engine bounds its waits itself.
    private var nextWait: TimeInterval? {
        guard let seconds else { return nil }
        return timeouts?.forExchange ?? seconds
    }

    /// Runs `wait` (a piece's head, or its body's next chunk), failing with
    /// ``TransportFailure/Kind/timedOut`` and cancelling it when it takes longer than the limit.
    /// - Parameter wait: The wait; a late result is dropped.
    /// - Returns: What `wait` returned in time.
    func bound<Value: Sendable>(_ wait: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard let limit = nextWait else { return try await wait() }
        return try await TimeLimit.run(seconds: limit, clock: clock, timers: timers, discard: { _ in }, wait)
    }
}
