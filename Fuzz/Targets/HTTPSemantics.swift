import Foundation

/// Arbitrary `Cache-Control`, `Expires`, `Date`, `Age` and `Set-Cookie` values through the cache's
/// and the cookie jar's parsers: never a crash; a lifetime and an age are finite and never
/// negative; a stored cookie is within the RFC's size, holds no control character, and the
/// `Cookie` field made from the jar holds no line break.
public func fuzzHTTPSemantics(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let fields = HeaderFields([
        .init(name: "Cache-Control", value: input.string(maximum: 64)),
        .init(name: "Expires", value: input.string(maximum: 40)),
        .init(name: "Date", value: input.string(maximum: 40)),
        .init(name: "Age", value: input.string(maximum: 16)),
        .init(name: "Last-Modified", value: input.string(maximum: 40)),
    ])
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let stored = CachedResponse(
        url: URL(string: "https://h.example/a")!, statusCode: input.bool() ? 200 : 404,
        headerFields: fields.map { .init(name: $0.name, value: $0.value) }, body: Data(), requestDate: start,
        responseDate: start, varyValues: [:])
    let freshness = CacheFreshness(stored, now: start.addingTimeInterval(10), heuristicFraction: 0.1)
    precondition(freshness.lifetime.isFinite && freshness.lifetime >= 0, "lifetime \(freshness.lifetime)")
    precondition(freshness.currentAge.isFinite && freshness.currentAge >= 0, "age \(freshness.currentAge)")
    _ = CacheRequest(URLRequest(url: stored.url), fields: fields).allows(freshness)

    let jar = CookieJar(clock: FixedClock(start: start))
    jar.store([input.string(maximum: 96), input.string(maximum: 96)], from: URL(string: "https://a.h.example/p/q")!)
    for cookie in jar.cookies {
        precondition(cookie.size <= 4_096, "a cookie over the size limit")
        precondition(
            !cookie.pair.unicodeScalars.contains { $0.value < 0x20 && $0.value != 0x09 }, "a control character")
    }
    if let header = jar.headerValue(for: URL(string: "https://a.h.example/p/q")!) {
        precondition(!header.contains("\r") && !header.contains("\n"), "a line break in Cookie")
    }
    return 0
}

/// A clock that stays at `start`: the jar's dates in a run do not depend on when it runs.
private struct FixedClock: ProviderClock {
    let start: Date

    func now() -> TimeInterval { 0 }

    func date() -> Date { start }

    func sleep(seconds: TimeInterval) async throws {}
}
