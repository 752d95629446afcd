import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A provider's ``HTTPCache``, the first stage of its chain: it answers from storage, validates,
/// or sends through the stages below it and stores the answer (RFC 9111 §4).
struct CacheStage: Stage {
    let cache: HTTPCache
    /// The cache policy a request takes below this stage, so that an engine's own cache never
    /// answers in this one's place: `.reloadIgnoringLocalCacheData` for an engine that honours
    /// cache policies, `.useProtocolCachePolicy` for one that does not, and `nil` (the request's
    /// own, unchanged) above a stub, which has no cache. A change copies the request on Linux
    /// (about 7,800 instructions), so it is decided once, for the chain.
    let enginePolicy: URLRequest.CachePolicy?
    /// Whether the storage may block (anything but ``MemoryCacheStorage``: ``DiskCacheStorage``
    /// reads and writes whole files, and an app's own storage may do anything), so that the stage
    /// runs off the caller's actor (``sendOffCaller(_:_:next:)``).
    let storageMayBlock: Bool

    /// The cache stage of a chain above `engine`, or above a stub (`engine` `nil`).
    init(cache: HTTPCache, engine: (any Transport)?) {
        self.cache = cache
        enginePolicy = engine.map {
            $0.capabilities.contains(.cachePolicy) ? .reloadIgnoringLocalCacheData : .useProtocolCachePolicy
        }
        storageMayBlock = !(cache.storage is MemoryCacheStorage)
    }

    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next: StageChain.Next
    ) async throws -> TransportResponse {
        guard storageMayBlock else { return try await sendHere(request, context, next: next) }
        return try await sendOffCaller(request, context, next: next)
    }

    /// The stage over a storage that may block, off the caller's actor: `@concurrent`, because a
    /// lookup, a store and an eviction are synchronous calls into the storage (for
    /// ``DiskCacheStorage``, file reads and writes of up to an eighth of its bound, and a scan of
    /// its folder), which must not run on an app's main actor when it awaits the request there.
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
        // A socket's handshake is never a cache's: it opens a connection (RFC 6455 §4.1).
        guard request.method == "GET", request.delivery == .memory, request.webSocket == nil,
            let url = request.urlRequest.url
        else {
            let response = try await next(engineRequest(request), context)
            invalidateAfterUnsafe(request, status: response.statusCode, fields: response.headerFields)
            return response
        }
        let fields = request.headerFields
        let asked = CacheRequest(request.urlRequest, fields: fields)
        let lookup = Lookup(
            request: request, context: context, next: next, url: url, key: cache.key(url), fields: fields,
            asked: asked)
        guard !asked.bypasses, !asked.noStore else {
            if asked.bypasses, !asked.noStore, let answer = answerConditional(lookup) { return answer }
            var response = try await next(engineRequest(request), context)
            response.cacheOutcome = .miss
            return response
        }
        return try await answer(lookup)
    }

    /// One GET's view of the cache.
    struct Lookup: Sendable {
        let request: TransportRequest
        let context: ExchangeContext
        let next: StageChain.Next
        let url: URL
        let key: String
        let fields: HeaderFields
        let asked: CacheRequest
    }

    /// §4: a stored response if the request allows it, else a validation, else the network.
    private func answer(_ lookup: Lookup) async throws -> TransportResponse {
        guard let stored = cache.variant(for: lookup.key, fields: lookup.fields) else {
            return lookup.asked.onlyIfCached ? unsatisfiable(lookup.url) : try await fetch(lookup, joining: true)
        }
        let freshness = CacheFreshness(stored, now: cache.now(), heuristicFraction: cache.heuristicFraction)
        switch lookup.asked.allows(freshness) {
        case .fresh: return served(stored, freshness, .fresh)
        case .stale: return served(stored, freshness, .stale(.maxStale))
        case .no: break
        }
        if lookup.asked.onlyIfCached { return unsatisfiable(lookup.url) }
        if !lookup.asked.noCache, !freshness.forbidsStale,
            let window = freshness.directives.seconds("stale-while-revalidate"),
            freshness.staleness <= TimeInterval(window.value(invalid: -1))
        {
            revalidateInBackground(lookup, stored)
            return served(stored, freshness, .stale(.whileRevalidating))
        }
        return try await validate(lookup, stored, freshness)
    }

    /// Sends a conditional request for `stored`; a 304 freshens and serves it.
    private func validate(_ lookup: Lookup, _ stored: CachedResponse, _ freshness: CacheFreshness) async throws
        -> TransportResponse
    {
        let storedFields = stored.fields
        let etag = storedFields["ETag"]
        let modified = storedFields["Last-Modified"]
        guard etag != nil || modified != nil else { return try await refetch(lookup, stored, freshness) }
        var conditional = engineRequest(lookup.request)
        // A validator is sent only as a field may be (a stored value with a control character is not).
        if let etag, HeaderFieldRules.problem(inValue: etag) == nil {
            conditional.urlRequest.setHeaderField(etag, named: "If-None-Match")
        }
        if let modified, HeaderFieldRules.problem(inValue: modified) == nil {
            conditional.urlRequest.setHeaderField(modified, named: "If-Modified-Since")
        }
        let sent = cache.now()
        let response: TransportResponse
        do {
            response = try await lookup.next(conditional, lookup.context)
        } catch {
            guard !Task.isCancelled, lookup.asked.allowsOnError(freshness) else { throw error }
            return served(stored, freshness, .stale(.ifError))
        }
        if response.statusCode == 304 {
            let updated = CacheEntries.freshened(stored, by: response.headerFields, sent: sent, received: cache.now())
            cache.store(updated, key: lookup.key, fields: lookup.fields)
            let now = CacheFreshness(updated, now: cache.now(), heuristicFraction: cache.heuristicFraction)
            return served(updated, now, .revalidated(notModified: response.headerFields))
        }
        if [500, 502, 503, 504].contains(response.statusCode), lookup.asked.allowsOnError(freshness) {
            return served(stored, freshness, .stale(.ifError))
        }
        return keep(response, lookup, sent: sent)
    }

    /// The network's answer in place of a stale response without validators; the stale one when
    /// the network fails within its `stale-if-error` window (RFC 5861 asks for no validator).
    private func refetch(_ lookup: Lookup, _ stored: CachedResponse, _ freshness: CacheFreshness) async throws
        -> TransportResponse
    {
        let response: TransportResponse
        do {
            response = try await fetch(lookup, joining: true)
        } catch {
            guard !Task.isCancelled, lookup.asked.allowsOnError(freshness) else { throw error }
            return served(stored, freshness, .stale(.ifError))
        }
        if [500, 502, 503, 504].contains(response.statusCode), lookup.asked.allowsOnError(freshness) {
            return served(stored, freshness, .stale(.ifError))
        }
        return response
    }

    /// The network's answer for a miss. Concurrent misses for one key send once (``CacheFills``):
    /// the first sends in a task of its own, the others wait for it, each within its own
    /// timeout, and take what it stored; the last one to leave cancels it.
    private func fetch(_ lookup: Lookup, joining: Bool) async throws -> TransportResponse {
        let request = engineRequest(lookup.request)
        let share = cache.fills.share(lookup.key, joining: joining) { [self] in
            let sent = cache.now()
            let response = try await lookup.next(request, lookup.context)
            return Fill(response: keep(response, lookup, sent: sent), startedAt: sent)
        }
        if share.isLeader { return try await cache.fills.value(of: share).response }
        // The stages below bound the leader's exchange by the leader's timeout; a joiner's own
        // wait is bounded here.
        guard let timeout = lookup.request.timeout else { return try await joined(share, lookup) }
        let wait: @Sendable () async throws -> TransportResponse = { [self] in try await joined(share, lookup) }
        return try await TimeLimit.run(
            seconds: timeout, clock: lookup.context.limitClock, timers: lookup.context.timers, discard: { _ in }, wait)
    }

    /// A joiner's answer: what the fill stored, or its own fetch when the fill failed or stored
    /// nothing this request may use.
    private func joined(_ share: CacheFills.Share, _ lookup: Lookup) async throws -> TransportResponse {
        let fill: Fill
        do {
            fill = try await cache.fills.value(of: share)
        } catch {
            if Task.isCancelled { throw error }
            return try await fetch(lookup, joining: false)
        }
        guard let stored = cache.variant(for: lookup.key, fields: lookup.fields), stored.requestDate >= fill.startedAt
        else { return try await fetch(lookup, joining: false) }
        let freshness = CacheFreshness(stored, now: cache.now(), heuristicFraction: cache.heuristicFraction)
        return served(stored, freshness, .shared)
    }

    /// A fill's answer, and when it was sent.
    struct Fill: Sendable {
        let response: TransportResponse
        let startedAt: Date
    }

    /// Stores `response` when it may be, and returns it marked as a miss.
    private func keep(_ response: TransportResponse, _ lookup: Lookup, sent: Date) -> TransportResponse {
        var response = response
        response.cacheOutcome = .miss
        let finalURL = response.response?.url ?? lookup.url
        guard cache.key(finalURL) == lookup.key,
            let entry = CacheEntries.storable(response, for: lookup, sent: sent, received: cache.now())
        else { return response }
        cache.store(entry, key: lookup.key, fields: lookup.fields)
        // A response that aged on its way (an Age from upstream, or a slow answer) says so.
        let freshness = CacheFreshness(entry, now: cache.now(), heuristicFraction: cache.heuristicFraction)
        if freshness.currentAge >= 1 {
            var fields = response.headerFields
            fields.removeAll(named: "Age")
            fields.append(name: "Age", value: freshness.ageField)
            var aged = TransportResponse(
                statusCode: response.statusCode, headerFields: fields, url: finalURL, data: response.data)
            aged.keepRecords(of: response)
            return aged
        }
        return response
    }

    /// Validates in a task of its own, once per key at a time, for `stale-while-revalidate`.
    /// The validation keeps no part of the caller's attempt: its own resilience notes, no progress.
    private func revalidateInBackground(_ lookup: Lookup, _ stored: CachedResponse) {
        var request = lookup.request
        request.progress = nil
        var context = lookup.context
        if context.notes != nil { context.notes = ResilienceNotes() }
        let background = Lookup(
            request: request, context: context, next: lookup.next, url: lookup.url, key: lookup.key,
            fields: lookup.fields, asked: lookup.asked)
        cache.fills.startInBackground("revalidate " + lookup.key) { [self] in
            let freshness = CacheFreshness(stored, now: cache.now(), heuristicFraction: 0)
            return Fill(response: try await validate(background, stored, freshness), startedAt: cache.now())
        }
    }

    /// `stored` as an answer, with its current `Age`.
    private func served(_ stored: CachedResponse, _ freshness: CacheFreshness, _ outcome: CacheOutcome)
        -> TransportResponse
    {
        var fields = stored.parsedFields.fieldsWithoutAge
        fields.append(name: "Age", value: freshness.ageField)
        var response = TransportResponse(
            statusCode: stored.statusCode, headerFields: fields, url: stored.url, data: stored.body)
        response.cacheOutcome = outcome
        return response
    }

    /// `only-if-cached` with nothing usable: the cache's own 504.
    private func unsatisfiable(_ url: URL) -> TransportResponse {
        var response = TransportResponse(statusCode: 504, headerFields: HeaderFields(), url: url, data: Data())
        response.cacheOutcome = .unsatisfiable
        return response
    }

    /// The request as the engine gets it: with the engine's own cache off when it has one.
    private func engineRequest(_ request: TransportRequest) -> TransportRequest {
        guard let policy = enginePolicy, request.urlRequest.cachePolicy != policy else { return request }
        var request = request
        request.urlRequest.cachePolicy = policy
        return request
    }

    /// §4.4: a non-error answer to an unsafe method removes what is stored for its URL and for
    /// same-origin `Location` and `Content-Location`.
    private func invalidateAfterUnsafe(_ request: TransportRequest, status: Int, fields: HeaderFields) {
        guard !["GET", "HEAD", "OPTIONS", "TRACE"].contains(request.method), (200..<400).contains(status),
            let url = request.urlRequest.url
        else { return }
        cache.invalidate(url)
        for name in ["Location", "Content-Location"] {
            guard let value = fields[name], let target = URL(string: value, relativeTo: url)?.absoluteURL,
                Origin(target) == Origin(url)
            else { continue }
            cache.invalidate(target)
        }
    }
}
