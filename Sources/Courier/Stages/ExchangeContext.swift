import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the stages of one attempt share, beside its request: the engine at the bottom, the
/// limits, the jar's state, the trust policy, and the records the stages write. A value made once
/// per attempt; what a stage learns for the attempt's metrics goes into a record it holds.
struct ExchangeContext: Sendable {
    /// Sends each hop: the provider's engine, or a stubbed target's stub engine.
    let engine: any Transport
    /// The attempt's and the request's limits, on the provider's clock; `nil` when no stage
    /// needs them (no policy, the system clock).
    let timeouts: Timeouts?
    /// The cookie jar's state for the attempt's requests and hops (``CookieStage``,
    /// ``RedirectStage``), when the provider has a jar and the request handles cookies.
    let cookies: HopCookies?
    /// The resilience state of the request's scope, when a policy applies.
    let scope: ScopeState?
    /// Where the resilience stage writes what it did, when a policy applies; a hedged copy and a
    /// background validation get a record of their own.
    var notes: ResilienceNotes?
    /// The provider's timer for limits on the system's clock (see ``DeadlineTimers``).
    var timers: DeadlineTimers?
    /// The request's trust policy, which ``TrustGateStage`` checks each exchange against and
    /// hands to the engine, or `nil`.
    var trust: TrustBox?

    /// `request` as the chain sends it first (``CookieStage`` adds the same again to each request
    /// that passes it): with the jar's cookies for its URL, so that `willTransmit`,
    /// ``Response/request`` and a failure's request show the `Cookie` field as it is sent.
    @inline(__always)
    func outgoing(_ request: URLRequest) -> URLRequest {
        guard let cookies else { return request }
        return cookies.outgoing(request)
    }

    /// The clock a time limit sleeps on, or `nil` for the system's.
    var limitClock: (any ProviderClock)? { timeouts?.limitClock }
}
