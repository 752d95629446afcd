import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the stages of one attempt share, beside its request: the engine at the bottom, the
/// limits, the jar's state for the hops, and the records the stages write. A value made once per
/// attempt; what a stage learns for the attempt's metrics goes into a record it holds.
struct ExchangeContext: Sendable {
    /// Sends each hop: the provider's engine, or a stubbed target's stub engine.
    let engine: any Transport
    /// The attempt's and the request's limits, on the provider's clock; `nil` when no stage
    /// needs them (no policy, the system clock).
    let timeouts: Timeouts?
    /// The cookie jar's state for the attempt's hops, when the provider has a jar and the request
    /// handles cookies.
    let cookies: HopCookies?
    /// The resilience state of the request's scope, when a policy applies.
    let scope: ScopeState?
    /// Where the resilience stage writes what it did, when a policy applies; a hedged copy and a
    /// background validation get a record of their own.
    var notes: ResilienceNotes?
    /// The provider's timer for limits on the system's clock (see ``DeadlineTimers``).
    var timers: DeadlineTimers?

    /// The clock a time limit sleeps on, or `nil` for the system's.
    var limitClock: (any ProviderClock)? { timeouts?.limitClock }
}
