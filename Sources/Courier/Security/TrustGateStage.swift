import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The trust gate as a stage, the last above the engine: every exchange of a request with a
/// trust policy (``ExchangeContext/trust``) passes ``TrustGate`` and goes down with the policy
/// the engine must enforce (``TransportRequest/trust``), each redirect hop and each request a
/// resumable transfer's stage sends included. In a provider's chain only for a request with a
/// policy, so no other request pays for the check.
struct TrustGateStage: Stage {
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard let trust = context.trust else { return try await next(request, context) }
        try TrustGate.admit(request, trust.policy, to: context.engine)
        var gated = request
        gated.trustBox = trust
        return try await next(gated, context)
    }
}
