import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ResilienceStage {
    /// What the hedging loop hears: a copy's answer, or the delay before the next copy ran out.
    private enum HedgeEvent: Sendable {
        case answer(Int, ResilienceNotes, Result<TransportResponse, any Error>)
        case delayOver
    }

    /// The copies in flight and the pending delay, cancelled together when one copy wins or the
    /// caller gives up.
    private final class HedgeTasks: Sendable {
        private let tasks = Locked<[Task<Void, Never>]>([])

        func add(_ task: Task<Void, Never>) {
            tasks.withLock { $0.append(task) }
        }

        func cancelAll() {
            for task in tasks.withLock({ $0 }) { task.cancel() }
        }
    }

    /// Whether `request` may be sent twice at once: of a method the policy hedges (safe ones by
    /// default), idempotent, with a body that can be sent again, to memory, and with no one
    /// counting its progress.
    static func mayHedge(_ request: TransportRequest, _ hedging: Hedging) -> Bool {
        guard case .inline = request.body, request.delivery == .memory, request.progress == nil else { return false }
        return hedging.methods.contains(HTTPMethod(rawValue: request.method)) && request.isIdempotent
    }

    /// Sends the first copy, and another each time the hedging delay runs out with no good
    /// answer, while the budget allows; the first good answer wins and the rest are cancelled.
    /// When every copy failed, the first one's outcome is the answer.
    func hedged(_ request: TransportRequest, _ hedging: Hedging, _ exchange: ScopedSend) async throws
        -> TransportResponse
    {
        let scope = exchange.scope
        let requestNotes = exchange.context.notes
        let (events, sink) = AsyncStream<HedgeEvent>.makeStream()
        let tasks = HedgeTasks()
        let delay = scope.hedgeDelay(hedging)
        let launch: @Sendable (Int) -> Void = { copy in
            // Each copy keeps a record of its own, merged here when it answers.
            // The first copy deposits in the budget for the request, as an unhedged one would.
            var copyExchange = exchange
            let notes = ResilienceNotes(deposits: copy == 0 && requestNotes?.deposits == true)
            copyExchange.context.notes = notes
            tasks.add(
                Task { sink.yield(.answer(copy, notes, await Result { try await gated(request, copyExchange) })) })
        }
        let wait: @Sendable () -> Void = { [clock] in
            tasks.add(
                Task {
                    guard (try? await clock.sleep(seconds: delay)) != nil else { return }
                    sink.yield(.delayOver)
                })
        }
        defer {
            tasks.cancelAll()
            sink.finish()
        }
        return try await withTaskCancellationHandler {
            launch(0)
            wait()
            var race = HedgeRace(maximumHedges: hedging.maximumHedges)
            for await event in events {
                switch event {
                case .delayOver:
                    guard race.mayStartCopy, scope.allowsRetry(now: clock.now()) else { continue }
                    requestNotes?.update { $0.hedges += 1 }
                    launch(race.startCopy())
                    if race.mayStartCopy { wait() }
                case .answer(let copy, let notes, let result):
                    requestNotes?.merge(notes.record)
                    let isGood = { result in Self.isGood(result, scope) }
                    guard let (winner, outcome) = race.settle(copy, result, isGood: isGood) else { continue }
                    requestNotes?.update { $0.answeredBy = winner }
                    return try outcome.get()
                }
            }
            throw CancellationError()
        } onCancel: {
            tasks.cancelAll()
            sink.finish()
        }
    }

    /// A response the breaker would not count as a failure.
    private static func isGood(_ result: Result<TransportResponse, any Error>, _ scope: ScopeState) -> Bool {
        guard case .success(let response) = result else { return false }
        return !scope.failureStatuses.contains(response.statusCode)
    }
}

/// The bookkeeping of one hedged exchange: copies started and running, and the first answer.
struct HedgeRace {
    let maximumHedges: Int
    private var started = 1
    private var running = 1
    private var first: (Int, Result<TransportResponse, any Error>)?

    init(maximumHedges: Int) {
        self.maximumHedges = maximumHedges
    }

    /// Whether another copy may start.
    var mayStartCopy: Bool { started <= maximumHedges && running > 0 }

    /// Counts a new copy; returns its number.
    mutating func startCopy() -> Int {
        started += 1
        running += 1
        return started - 1
    }

    /// The race's result once `copy` answered, if that settles it: a good answer wins at once;
    /// when the last copy running failed, the first answer stands.
    mutating func settle(
        _ copy: Int, _ result: Result<TransportResponse, any Error>,
        isGood: (Result<TransportResponse, any Error>) -> Bool
    ) -> (Int, Result<TransportResponse, any Error>)? {
        running -= 1
        if isGood(result) { return (copy, result) }
        if first == nil { first = (copy, result) }
        return running == 0 ? first : nil
    }
}
