import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bounds an exchange by ``TransportRequest/timeout`` for an engine that does not enforce it
/// itself (one that does not declare ``TransportCapabilities/timeouts``): in a provider's chain
/// only for such an engine, above the redirects, so the limit spans every hop. A streamed
/// request's waits are bounded by its reader (the head, then each chunk): the attempt for a
/// streamed response, ``ResumeStage`` for a resumable download's pieces (``PieceTimeLimit``).
struct TimeLimitStage: Stage {
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard let timeout = request.timeout, request.delivery != .stream else {
            return try await next(request, context)
        }
        return try await TimeLimit.run(
            seconds: timeout, clock: context.limitClock, timers: context.timers,
            discard: { late in late.fileURL.map { try? FileManager.default.removeItem(at: $0) } },
            { try await next(request, context) })
    }
}
