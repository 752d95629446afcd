import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The provider's cookie jar as a stage: every request that passes it carries the jar's cookies
/// for its own URL, and every answer that comes back through it has its `Set-Cookie` stored.
///
/// In a provider's chain only when it has a ``CookieJar``, below a resumable transfer's stage and
/// above the cache: the attempt's request, each piece of a resumable download and each request of
/// a resumable upload (the creation, `HEAD`, every append) pass it, so a cookie a creation sets
/// goes with the appends, and an upload resource on another origin gets that origin's cookies.
/// The cache sees the `Cookie` field (a `Vary: Cookie` answer varies by it). Redirect hops below
/// it carry the jar's state in ``ExchangeContext/cookies`` (``RedirectStage``). A request that
/// does not handle cookies (no ``HopCookies`` in its context) passes untouched.
struct CookieStage: Stage {
    /// Whether the provider's jar persists to a file (``CookieJar/persists``), so that the stage
    /// runs off the caller's actor (``sendOffCaller(_:_:next:)``).
    let writesFile: Bool

    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard writesFile, context.cookies != nil else { return try await sendHere(request, context, next: next) }
        return try await sendOffCaller(request, context, next: next)
    }

    /// The stage over a jar that persists, off the caller's actor: `@concurrent`, because such a
    /// jar writes its file (up to 3,000 cookies, encoded as JSON) under its lock after each
    /// answer that sets a cookie, here and on each redirect hop below, which must not run on an
    /// app's main actor when it awaits the request there.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    private func sendOffCaller(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        try await sendHere(request, context, next: next)
    }

    /// The stage, on the executor it is called on.
    private func sendHere(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard let cookies = context.cookies else { return try await next(request, context) }
        var sent = request
        sent.urlRequest = cookies.outgoing(request.urlRequest)
        sent.jarHandlesCookies = true
        let received = try await next(sent, context)
        if let url = received.response?.url ?? sent.urlRequest.url { cookies.storeCookies(of: received, url: url) }
        return received
    }
}
