import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP behaviour between an attempt and the engine: the cache, the resilience policy, the
/// time limit, redirects. The provider builds its chain of stages once (``StageChain``); a stage
/// gets the request, the attempt's context and the rest of the chain, and either answers itself
/// (a cache hit) or sends through `next`, as many times as it needs (a redirect's hops, a
/// validation, hedged copies).
///
/// A new behaviour is one type conforming to this, in a folder of its own, and one place in
/// ``StageChain/Stages``, whose order is the one list. A request a stage sends itself (a redirect
/// hop, a resumed piece, an upload's append) goes through `next`, so it passes every stage below.
protocol Stage: Sendable {
    /// Handles `request`, sending what it sends through `next`.
    /// - Parameters:
    ///   - request: What this stage is asked to send.
    ///   - context: What the attempt's stages share.
    ///   - next: The rest of the chain, down to the engine.
    /// - Returns: The response this stage answers with.
    /// - Throws: What the engine or the stage throws.
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse
}
