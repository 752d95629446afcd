import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The provider's stages in order, built once when the provider is made: the one list that says
/// what runs between an attempt's `adapt` and the engine, for every request any stage sends.
///
/// The list, in this order (``Stages/ordered``), each only where it is used:
/// 1. a resumable transfer's stage (``ResumeStage`` for a download, ``UploadResumeStage`` for an
///    upload), only in such a request's chain: everything below runs once per request it sends;
/// 2. ``CookieStage``, when the provider has a ``CookieJar``: the jar's cookies for each
///    request's URL, each answer's `Set-Cookie` stored;
/// 3. ``CacheStage``, when the provider has an ``HTTPCache``: answers from storage, validates, or
///    sends once for concurrent misses;
/// 4. ``ResilienceStage``, when a ``ResiliencePolicy`` applies to the request: back-off, rate
///    limit, concurrency limit, circuit breaker, hedged copies;
/// 5. ``TimeLimitStage``, when the engine does not enforce timeouts itself;
/// 6. ``RedirectStage``, for the network (a stub's answer is final): follows redirects with the
///    provider's ``RedirectPolicy`` and carries the jar's cookies from hop to hop;
/// 7. ``TrustGateStage``, for a request with a ``TrustPolicy``: checks each exchange;
/// 8. the engine: the provider's ``Transport``, or a stubbed target's stub engine.
///
/// The attempt adds the jar's cookies to its own request before `willTransmit` too
/// (``ExchangeContext/outgoing(_:)``), so that the observation shows them as they are sent.
///
/// A stage a request does not use is not in its chain and costs nothing: the provider keeps one
/// chain per combination a request can need (stubbed or not, with a policy or not, with a trust
/// policy or not) and picks one; a resumable transfer's chain is that one with its stage on top.
struct StageChain: Sendable {
    /// The provider's stages, by what a request needs.
    private let variants: [Stages]
    /// The chains of ``variants``, in the same order.
    private let chains: [Next]

    /// The stages of one chain, each `nil` when the chain does not use it.
    struct Stages: Sendable {
        var transfer: (any Stage)?
        var cookies: CookieStage?
        var cache: CacheStage?
        var resilience: ResilienceStage?
        var timeLimit: TimeLimitStage?
        var redirects: RedirectStage?
        var trustGate: TrustGateStage?

        /// The order of the stages: the one place it is written.
        var ordered: [any Stage] {
            let ordered: [(any Stage)?] = [transfer, cookies, cache, resilience, timeLimit, redirects, trustGate]
            return ordered.compactMap { $0 }
        }
    }

    /// What the provider puts above its engine.
    struct Parts {
        /// The provider's cache, if any.
        var cache: HTTPCache?
        /// The provider's cookie jar, if any.
        var cookies: CookieJar?
        /// The provider's clock.
        var clock: any ProviderClock
        /// What to do with redirects.
        var redirects: RedirectPolicy
    }

    /// Builds the chains of a provider whose engine is `engine`.
    init(_ parts: Parts, engine: any Transport) {
        let networkCache = parts.cache.map { CacheStage(cache: $0, engine: engine) }
        let stubCache = parts.cache.map { CacheStage(cache: $0, engine: nil) }
        let resilience = ResilienceStage(clock: parts.clock)
        let redirect = RedirectStage(policy: parts.redirects)
        let timeLimit = engine.capabilities.contains(.timeouts) ? nil : TimeLimitStage()
        let cookies = parts.cookies.map { CookieStage(writesFile: $0.persists) }
        var variants: [Stages] = []
        for index in 0..<8 {
            let (stubbed, policy, gated) = Self.flags(of: index)
            // The stub engine enforces its limits itself and answers as it is told.
            variants.append(
                Stages(
                    cookies: cookies, cache: stubbed ? stubCache : networkCache, resilience: policy ? resilience : nil,
                    timeLimit: stubbed ? nil : timeLimit, redirects: stubbed ? nil : redirect,
                    trustGate: gated ? TrustGateStage() : nil))
        }
        self.variants = variants
        chains = variants.map { Next($0.ordered) }
    }

    /// The index of a combination in ``variants``, and back.
    @inline(__always)
    private static func index(stubbed: Bool, policy: Bool, gated: Bool) -> Int {
        (stubbed ? 4 : 0) + (policy ? 2 : 0) + (gated ? 1 : 0)
    }

    private static func flags(of index: Int) -> (stubbed: Bool, policy: Bool, gated: Bool) {
        (index & 4 != 0, index & 2 != 0, index & 1 != 0)
    }

    /// The chain for a request: stubbed or not, under a resilience policy or not, with a trust
    /// policy or not, below its resumable transfer's stage when it has one.
    @inline(__always)
    func chain(stubbed: Bool, policy: Bool, gated: Bool, transfer: (any Stage)? = nil) -> Next {
        let index = Self.index(stubbed: stubbed, policy: policy, gated: gated)
        guard let transfer else { return chains[index] }
        var stages = variants[index]
        stages.transfer = transfer
        return Next(stages.ordered)
    }

    /// The rest of a chain from one stage down to the engine.
    struct Next: Sendable {
        let stages: [any Stage]
        let index: Int

        init(_ stages: [any Stage], index: Int = 0) {
            self.stages = stages
            self.index = index
        }

        /// Sends `request` through the stages from here, then the context's engine.
        @inline(__always)
        func callAsFunction(_ request: TransportRequest, _ context: ExchangeContext) async throws
            -> TransportResponse
        {
            guard index < stages.count else { return try await context.engine.send(request) }
            return try await stages[index].send(request, context, next: Next(stages, index: index + 1))
        }
    }
}

extension Transport {
    /// Sends `request` through the stages a provider with no cache, jar or policy puts above this
    /// engine (the time limit, when the engine does not enforce it, and redirects): what the
    /// engine's answers become in a provider. CourierTesting's conformance suite runs its
    /// pipeline cases this way.
    /// - Parameters:
    ///   - request: What to send.
    ///   - redirects: What to do with redirects.
    /// - Returns: The final response.
    /// - Throws: What the engine or a stage throws.
    package func sendThroughStages(
        _ request: TransportRequest, redirects: RedirectPolicy = .follow
    ) async throws -> TransportResponse {
        let chain = StageChain(StageChain.Parts(clock: .system, redirects: redirects), engine: self)
        let context = ExchangeContext(engine: self, timeouts: nil, cookies: nil, scope: nil, notes: nil)
        return try await Provider<MultiTarget>.send(
            request, through: chain.chain(stubbed: false, policy: false, gated: false), context)
    }

    /// Sends `request` bounded by its ``TransportRequest/timeout`` when this engine does not
    /// enforce it, as a provider does (and nothing else).
    /// - Parameter request: What to send.
    /// - Returns: The engine's response.
    /// - Throws: What the engine throws, or a timeout.
    package func sendWithinTimeout(_ request: TransportRequest) async throws -> TransportResponse {
        guard !capabilities.contains(.timeouts) else { return try await send(request) }
        let context = ExchangeContext(engine: self, timeouts: nil, cookies: nil, scope: nil, notes: nil)
        return try await TimeLimitStage().send(request, context, next: StageChain.Next([]))
    }
}
