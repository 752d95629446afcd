import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``ResiliencePolicy`` in the transport's place, below the cache: each exchange passes the
/// server back-off, the rate limit, the concurrency limit and the circuit breaker, in that
/// order, and its outcome teaches the scope. Hedged when the policy asks and the request allows.
struct ResilienceStage: Stage {
    let clock: any ProviderClock

    /// Passes the request through the gates of the context's scope (a stage in the chains of
    /// requests a policy applies to, so the scope is there).
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard let scope = context.scope else { return try await next(request, context) }
        let scoped = ScopedSend(scope: scope, context: context, next: next)
        if let hedging = scope.hedging, Self.mayHedge(request, hedging) {
            return try await hedged(request, hedging, scoped)
        }
        return try await gated(request, scoped)
    }

    /// One exchange's scope and the rest of the chain.
    struct ScopedSend: Sendable {
        let scope: ScopeState
        var context: ExchangeContext
        let next: StageChain.Next
    }

    /// Passes the gates, sends through the rest of the chain, and teaches the scope the outcome. Inlined with its
    /// callers: each async call is a task frame, and this stage's cost is counted (Benchmarks/count).
    @inline(__always)
    func gated(_ request: TransportRequest, _ exchange: ScopedSend) async throws -> TransportResponse {
        let scope = exchange.scope
        let notes = exchange.context.notes
        let now = clock.now()
        let admission: BreakerState.Admission
        var sent = request
        // The first attempt's first copy deposits in the budget, in the same lock as the gates.
        switch scope.passAtOnce(now: now, deposit: notes?.deposits ?? false) {
        case .admitted(let passed, let transitions):
            admission = passed
            if passed == .probe || !transitions.isEmpty { note(transitions, probe: passed == .probe, notes) }
        case .refused(let refusal, let transitions):
            note(transitions, probe: false, notes)
            throw refusal
        case .mustWait(let transitions):
            note(transitions, probe: false, notes)
            (admission, sent) = try await admittedAfterWaiting(request, exchange)
        }
        defer { scope.bulkhead?.release() }
        do {
            let answer = try await exchange.next(sent, exchange.context)
            learn(from: answer.statusCode, { answer.headerFields }, start: now, admission, exchange)
            return answer
        } catch {
            learn(from: error, admission, exchange)
            throw error
        }
    }

    /// The gates one at a time, waiting at each as the policy allows; the request to send, with
    /// the time that is left. The caller releases the place. A rate-limit token reserved here is
    /// given back on every way out that does not send (a cancelled wait, no place in the
    /// concurrency limit, an open breaker): it is spent only by an exchange.
    private func admittedAfterWaiting(
        _ request: TransportRequest, _ exchange: ScopedSend
    ) async throws -> (BreakerState.Admission, TransportRequest) {
        let scope = exchange.scope
        let notes = exchange.context.notes
        let patience = exchange.context.timeouts?.deadline?.remaining ?? .infinity
        var waited: TimeInterval = 0
        var reservedToken = false
        defer { if reservedToken { scope.returnToken() } }
        let gate = try scope.gate(now: clock.now(), patience: patience)
        // Past the gate, a rate limit has given a token, to be spent now or after the wait.
        reservedToken = scope.hasRateLimit
        if case .wait(let backOff, let rate) = gate {
            notes?.update { record in
                record.backOffWait += backOff
                record.rateLimitWait += rate
            }
            try await clock.sleep(seconds: backOff + rate)
            waited += backOff + rate
        }
        if let bulkhead = scope.bulkhead {
            let queued = try await bulkhead.acquire(clock: clock, patience: patience - waited)
            notes?.update { $0.queueWait += queued }
            waited += queued
        }
        let (admission, transitions) = scope.admit(now: clock.now())
        note(transitions, probe: admission == .probe, notes)
        if case .refuse(let retryAfter) = admission {
            scope.bulkhead?.release()
            throw ResilienceError.circuitOpen(retryAfter: retryAfter)
        }
        reservedToken = false
        var sent = request
        if waited > 0, let timeouts = exchange.context.timeouts { sent.timeout = timeouts.forExchange }
        return (admission, sent)
    }

    private func learn(
        from status: Int, _ fields: () -> HeaderFields, start: TimeInterval, _ admission: BreakerState.Admission,
        _ exchange: ScopedSend
    ) {
        let scope = exchange.scope
        let notes = exchange.context.notes
        let now = clock.now()
        var outcome = ExchangeOutcome(status: status, latency: now - start)
        // The fields only for a back-off status: an engine's fields are made when first read.
        if let rule = scope.backOff, scope.backOffStatuses.contains(status) {
            let date = clock.date()
            let wait = ServerWait.announced(
                status: status, fields: fields(), now: date, rateLimitStatuses: rule.rateLimitStatusCodes)
            // A Retry-After alone counts only on a status of `statusCodes`.
            if let wait, wait.isRateLimit || rule.statusCodes.contains(status) {
                outcome.serverWait = wait
                outcome.date = date
            }
        }
        note(scope.record(outcome, admission: admission, now: now), probe: false, notes)
    }

    private func learn(from error: any Error, _ admission: BreakerState.Admission, _ exchange: ScopedSend) {
        let scope = exchange.scope
        let notes = exchange.context.notes
        let cancelled = Task.isCancelled || error is CancellationError || (error as? URLError)?.code == .cancelled
        // A trust failure (a pin mismatch, a policy the engine cannot enforce) says nothing of the
        // upstream's health: like a cancellation, it teaches the breaker nothing.
        // Nor does a redirect the provider refused to follow: the upstream answered.
        let teachesNothing = cancelled || error is TrustFailure || error is RedirectError
        note(
            scope.record(ExchangeOutcome(cancelled: teachesNothing), admission: admission, now: clock.now()),
            probe: false, notes)
    }

    private func note(_ transitions: [CircuitTransition], probe: Bool, _ notes: ResilienceNotes?) {
        guard let notes, probe || !transitions.isEmpty else { return }
        notes.update { record in
            record.circuitTransitions += transitions
            if probe { record.wasProbe = true }
        }
    }
}
