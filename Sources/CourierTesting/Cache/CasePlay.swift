import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cases being played, by index, for the server to answer from.
final class CasePlays: Sendable {
    private let plays = Locked<[Int: CasePlay]>([:])

    func add(_ play: CasePlay) { plays.withLock { $0[play.index] = play } }

    /// The answer of the case the request's path names.
    func answer(_ request: ServerRequest) -> ServerReply {
        let parts = request.path.split(separator: "/")
        guard let first = parts.first, let index = Int(first), let play = plays.withLock({ $0[index] }) else {
            return ServerReply(status: 404)
        }
        return play.answer(request)
    }
}

/// One case: its clock, what the server saw, and the client's steps.
final class CasePlay: Sendable {
    let testCase: CacheTestCase
    let index: Int
    let base: URL
    private let clock = TestClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    private let seen = Locked(Seen())

    /// What reached the server: each arrival's step, method and fields; the last validators.
    struct Seen {
        var count = 0
        var arrivals: [Int: (method: String, fields: [(name: String, value: String)])] = [:]
        var etag: String?
        var lastModified: String?
    }

    init(testCase: CacheTestCase, index: Int, base: URL) {
        self.testCase = testCase
        self.index = index
        self.base = base
    }

    var now: Date { clock.date() }

    /// What reached the server, by step.
    var seenArrivals: [Int: (method: String, fields: [(name: String, value: String)])] {
        seen.withLock { $0.arrivals }
    }

    /// The server's answer to the request of step `Cache-Test-Step`.
    func answer(_ request: ServerRequest) -> ServerReply {
        guard let number = request.header("Cache-Test-Step").flatMap(Int.init),
            testCase.steps.indices.contains(number - 1)
        else { return ServerReply(status: 400) }
        let step = testCase.steps[number - 1]
        let reply = step.reply
        let (count, etag, modified) = seen.withLock { seen in
            seen.count += 1
            seen.arrivals[number] = (request.method, request.headers)
            return (seen.count, seen.etag, seen.lastModified)
        }
        if reply?.hangUp == true { return .closeConnection }
        if let delay = reply?.delaySeconds { clock.advance(by: delay) }
        let lines = fields(reply?.fields ?? [], absolute: reply?.absoluteLocations == true)
        var headers = Dictionary(lines.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        headers["Server-Request-Count"] = String(count)
        headers["Server-Arrival"] = String(number)
        headers["Client-Request-Count"] = String(number)
        if let source = step.expect?.source, source == "etag" || source == "lm" {
            let (name, expected) = source == "etag" ? ("If-None-Match", etag) : ("If-Modified-Since", modified)
            let validated = expected != nil && request.header(name) == expected
            return ServerReply(status: validated ? 304 : 999, headers: headers)
        }
        seen.withLock { seen in
            if let value = headers.first(where: { $0.key.lowercased() == "etag" })?.value { seen.etag = value }
            if let value = headers.first(where: { $0.key.lowercased() == "last-modified" })?.value {
                seen.lastModified = value
            }
        }
        // A reply that states its Content-Length gets a body of that length.
        let length = headers.first { $0.key.lowercased() == "content-length" }.flatMap { Int($0.value) }
        let body = reply?.body ?? length.map { String(repeating: "x", count: $0) } ?? "\(testCase.id) answer \(count)"
        let status = reply?.status ?? 200
        guard Set(lines.map { $0.name.lowercased() }).count < lines.count else {
            return ServerReply(status: status, headers: headers, body: Data(body.utf8))
        }
        // A name given twice goes out as two field lines, which only a raw reply can send.
        var head = "HTTP/1.1 \(status) Answer\r\n"
        for (name, value) in lines + [("Server-Request-Count", String(count)), ("Server-Arrival", String(number))] {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return .raw(head + body)
    }

    /// The reply's fields with dates resolved on the case's clock.
    private func fields(_ list: [CacheTestCase.Field], absolute: Bool) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for field in list {
            var value = field.value ?? ""
            if let seconds = field.secondsFromNow { value = Self.httpDate(now.addingTimeInterval(seconds)) }
            if absolute, ["location", "content-location"].contains(field.name.lowercased()) {
                value = base.appendingPathComponent("\(index)/\(value)").absoluteString
            }
            headers.append((field.name, value))
        }
        return headers
    }

    /// `date` as an IMF-fixdate.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Plays the client's steps; returns what did not hold.
    func run(on transport: any Transport) async -> [String] {
        let cache = HTTPCache(clock: clock)
        let providers = (
            Provider<CacheTestTarget>(transport: transport, options: ProviderOptions(cache: cache)),
            Provider<CacheTestTarget>(transport: transport, options: ProviderOptions(redirects: .refuse, cache: cache))
        )
        var failures: [String] = []
        for (offset, step) in testCase.steps.enumerated() {
            let number = offset + 1
            let target = CacheTestTarget(base: base, index: index, number: number, step: step)
            let provider = step.followRedirects == false ? providers.1 : providers.0
            let outcome: Result<Response, CourierError>
            do {
                outcome = .success(try await provider.request(target))
            } catch {
                outcome = .failure(error)
            }
            failures += check(step, number: number, outcome).map { "step \(number): \($0)" }
            await cache.waitForPendingWork()
            if let wait = step.waitSeconds { clock.advance(by: wait) }
        }
        return failures
    }
}
