import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``ResiliencePolicy`` in the transport's place, below the cache: each exchange passes the
/// server back-off, the rate limit, the concurrency limit and the circuit breaker, in that
/// order, and its outcome teaches the scope. Hedged when the policy asks and the request allows.
struct ResilienceStage: Transport {
    let scope: ScopeState
    let engine: any Transport
    let clock: any ProviderClock

    /// The engine's, and timeouts: the stage bounds each exchange itself, after its waits.
    var capabilities: TransportCapabilities { engine.capabilities.union(.timeouts) }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if let hedging = scope.policy.hedging, Self.mayHedge(request) {
            return try await hedged(request, hedging)
        }
        return try await exchange(request)
    }

    func stream(_ request: TransportRequest) async throws -> StreamedTransportResponse {
        try await gated(request, head: { ($0.statusCode, $0.headerFields) }, send: { try await engine.stream($0) })
    }

    /// One exchange through the gates: a whole response, or one copy of a hedged one.
    func exchange(_ request: TransportRequest) async throws -> TransportResponse {
        try await gated(
            request, head: { ($0.statusCode, $0.headerFields) }, send: { try await engine.sendWithinTimeout($0) })
    }

    /// Passes the gates, sends with `send`, and teaches the scope the outcome.
    private func gated<Answer>(
        _ request: TransportRequest, head: (Answer) -> (Int, HeaderFields),
        send: (TransportRequest) async throws -> Answer
    ) async throws -> Answer {
        let (admission, sent) = try await admitted(request)
        defer { scope.bulkhead?.release() }
        let start = clock.now()
        do {
            let answer = try await send(sent)
            let (status, fields) = head(answer)
            learn(from: status, fields, start: start, admission, notes: request.resilienceNotes)
            return answer
        } catch {
            learn(from: error, admission, notes: request.resilienceNotes)
            throw error
        }
    }

    /// Waits at the gates and takes a place; the request to send, with the time that is left.
    /// The caller releases the place.
    private func admitted(_ request: TransportRequest) async throws -> (BreakerState.Admission, TransportRequest) {
        let notes = request.resilienceNotes
        let patience = request.timeouts?.deadline?.remaining ?? .infinity
        var waited: TimeInterval = 0
        if case .wait(let backOff, let rate) = try scope.gate(now: clock.now(), patience: patience) {
            notes?.update {
                $0.backOffWait += backOff
                $0.rateLimitWait += rate
            }
            do {
                try await clock.sleep(seconds: backOff + rate)
            } catch {
                if rate > 0 { scope.returnToken() }
                throw error
            }
            waited += backOff + rate
        }
        if let bulkhead = scope.bulkhead {
            let queued = try await bulkhead.acquire(clock: clock, patience: patience - waited)
            if queued > 0 { notes?.update { $0.queueWait += queued } }
            waited += queued
        }
        let (admission, transitions) = scope.admit(now: clock.now())
        if !transitions.isEmpty || admission == .probe {
            notes?.update {
                $0.circuitTransitions += transitions
                if admission == .probe { $0.wasProbe = true }
            }
        }
        if case .refuse(let retryAfter) = admission {
            scope.bulkhead?.release()
            throw ResilienceError.circuitOpen(retryAfter: retryAfter)
        }
        var sent = request
        if waited > 0, let timeouts = request.timeouts { sent.timeout = timeouts.forExchange }
        return (admission, sent)
    }

    private func learn(
        from status: Int, _ fields: HeaderFields, start: TimeInterval, _ admission: BreakerState.Admission,
        notes: ResilienceNotes?
    ) {
        var outcome = ExchangeOutcome(status: status, latency: clock.now() - start)
        if scope.policy.serverBackOff?.statusCodes.contains(status) == true, let value = fields["Retry-After"] {
            outcome.retryAfter = RetryAfter.delay(value, now: clock.date())
        }
        note(scope.record(outcome, admission: admission, now: clock.now()), notes)
    }

    private func learn(from error: any Error, _ admission: BreakerState.Admission, notes: ResilienceNotes?) {
        let cancelled = Task.isCancelled || error is CancellationError || (error as? URLError)?.code == .cancelled
        note(scope.record(ExchangeOutcome(cancelled: cancelled), admission: admission, now: clock.now()), notes)
    }

    private func note(_ transitions: [CircuitTransition], _ notes: ResilienceNotes?) {
        guard !transitions.isEmpty else { return }
        notes?.update { $0.circuitTransitions += transitions }
    }
}
