import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The provider's stages in order, built once when the provider is made: the one list that says
/// what runs between an attempt's `willTransmit` and the engine.
///
/// An attempt runs, in this order: the cookie jar's cookies are added and `willTransmit` is
/// called (in the attempt itself, so the observation shows them), then
/// 1. ``CacheStage``, when the provider has an ``HTTPCache``: answers from storage, validates, or
///    sends once for concurrent misses;
/// 2. ``ResilienceStage``, when a ``ResiliencePolicy`` applies to the request: back-off, rate
///    limit, concurrency limit, circuit breaker, hedged copies;
/// 3. ``TimeLimitStage``, when the engine does not enforce timeouts itself;
/// 4. ``RedirectStage``, for the network (a stub's answer is final): follows redirects with the
///    provider's ``RedirectPolicy`` and carries the jar's cookies from hop to hop;
/// 5. the engine: the provider's ``Transport``, or a stubbed target's stub engine.
///
/// A stage a provider does not use is not in its chains and costs nothing: the provider keeps one
/// chain per combination a request can need (stubbed or not, with a policy or not) and picks one.
struct StageChain: Sendable {
    /// The chain of a request to the engine, without a policy.
    let network: Next
    /// The chain of a request to the engine under a policy.
    let networkWithPolicy: Next
    /// The chain of a stubbed request, without a policy.
    let stub: Next
    /// The chain of a stubbed request under a policy.
    let stubWithPolicy: Next

    /// Builds the chains of a provider.
    /// - Parameters:
    ///   - cache: The provider's cache, if any.
    ///   - clock: The provider's clock.
    ///   - redirects: What to do with redirects.
    ///   - engine: The provider's engine.
    init(cache: HTTPCache?, clock: any ProviderClock, redirects: RedirectPolicy, engine: any Transport) {
        let networkCache = cache.map { CacheStage(cache: $0, engine: engine) }
        let stubCache = cache.map { CacheStage(cache: $0, engine: nil) }
        let resilience = ResilienceStage(clock: clock)
        let redirect = RedirectStage(policy: redirects)
        let timeLimit = engine.capabilities.contains(.timeouts) ? nil : TimeLimitStage()
        network = Next(Self.stages(cache: networkCache, resilience: nil, timeLimit: timeLimit, redirects: redirect))
        networkWithPolicy = Next(
            Self.stages(cache: networkCache, resilience: resilience, timeLimit: timeLimit, redirects: redirect))
        // The stub engine enforces its limits itself and answers as it is told.
        stub = Next(Self.stages(cache: stubCache, resilience: nil, timeLimit: nil, redirects: nil))
        stubWithPolicy = Next(Self.stages(cache: stubCache, resilience: resilience, timeLimit: nil, redirects: nil))
    }

    /// The order of the stages: the one place it is written.
    static func stages(
        cache: CacheStage?, resilience: ResilienceStage?, timeLimit: TimeLimitStage?, redirects: RedirectStage?
    ) -> [any Stage] {
        let ordered: [(any Stage)?] = [cache, resilience, timeLimit, redirects]
        return ordered.compactMap { $0 }
    }

    /// The chain for a request: stubbed or not, under a policy or not.
    @inline(__always)
    func chain(stubbed: Bool, policy: Bool) -> Next {
        switch (stubbed, policy) {
        case (false, false): network
        case (false, true): networkWithPolicy
        case (true, false): stub
        case (true, true): stubWithPolicy
        }
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
        let chain = StageChain(cache: nil, clock: .system, redirects: redirects, engine: self)
        let context = ExchangeContext(engine: self, timeouts: nil, cookies: nil, scope: nil, notes: nil)
        return try await Provider<MultiTarget>.send(request, through: chain.network, context)
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
