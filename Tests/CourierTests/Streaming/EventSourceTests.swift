import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server-Sent Events across reconnections: `Last-Event-ID` from dispatched events only, the
/// server's `retry`, 204 to stop, a token refreshed between two connections, what ends a source
/// and what is retried. Cases marked with a file come from web-platform-tests' `eventsource/`.
@Suite("EventSource")
struct EventSourceTests {
    struct Events: TargetType {
        var baseURL: URL
        var path: String { "/events" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { ["Accept": "text/event-stream"] }
        var validationType: ValidationType { .successCodes }
    }

    /// A target without headers of its own, accepting any status.
    struct Bare: TargetType {
        var baseURL: URL
        var path: String { "/events" }
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// Reconnections in tenths of a second, for tests.
    static let quick = EventReconnection(delay: 0.01, maximumAttempts: 5, minimumDelay: 0.01, maximumDelay: 0.05)

    /// An event stream of `body`, closed after it.
    static func eventStream(_ body: String, type: String = "text/event-stream") -> ServerReply {
        .raw("HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nConnection: close\r\n\r\n" + body)
    }

    /// A server answering the nth request with `reply(n, request)`, recording each
    /// `Last-Event-ID` (or `-`).
    static func server(
        _ reply: @escaping @Sendable (Int, ServerRequest) -> ServerReply
    ) throws -> (LoopbackServer, Locked<[String]>) {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            let count = seen.withLock { seen in
                seen.append(request.header("Last-Event-ID") ?? "-")
                return seen.count
            }
            return reply(count, request)
        }
        return (server, seen)
    }

    @Test("a closed stream is reconnected with Last-Event-ID; 204 ends it (format-field-id.any.js)")
    func reconnection() async throws {
        let (server, seen) = try Self.server { count, _ in
            switch count {
            case 1: Self.eventStream("retry: 10\nid: 1\ndata: a\n\n")
            case 2: Self.eventStream("id: 2\ndata: b\n\ndata: unterminated")
            default: ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick) {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "2")])
        #expect(seen.value == ["-", "1", "2"])
    }

    @Test("the last event ID carries over a connection whose events set none, as the standard says")
    func lastEventIDPersists() async throws {
        let (server, seen) = try Self.server { count, _ in
            switch count {
            case 1: Self.eventStream("id: 1\ndata: a\n\n")
            case 2: Self.eventStream("data: b\n\n")
            default: ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick) {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1")])
        #expect(seen.value == ["-", "1", "1"])
    }

    @Test("a stream cut after an event's id but before its blank line resumes after the event before it")
    func cutMidEvent() async throws {
        let (server, seen) = try Self.server { count, _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = { (text: String) in String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }
            switch count {
            // No last chunk: the connection closes mid-body, a broken transfer, inside event 6.
            case 1: return .raw(head + chunk("id: 5\ndata: whole\n\n") + chunk("id: 6\ndata: torn"))
            // A server that resumes after Last-Event-ID: event 6 again, whole, then 7.
            case 2: return .raw(head + chunk("id: 6\ndata: six\n\nid: 7\ndata: seven\n\n") + "0\r\n\r\n")
            default: return ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick) {
            events.append(event)
        }
        #expect(events.map(\.data) == ["whole", "six", "seven"])
        #expect(seen.value == ["-", "5", "7"])
    }

    @Test("a source started with an ID sends it on the first connection; the iterator tells the last one")
    func startedWithID() async throws {
        let (server, seen) = try Self.server { count, _ in
            count == 1 ? Self.eventStream("id: 43\ndata: next\n\nid: 44\n\n") : ServerReply(status: 204)
        }
        let source = Provider<Events>().events(
            Events(baseURL: server.baseURL), lastEventID: "42", reconnection: Self.quick)
        var iterator = source.makeAsyncIterator()
        #expect(try await iterator.next()?.data == "next")
        #expect(iterator.lastEventID == "43")
        #expect(try await iterator.next() == nil)
        // The ID-only block at the end moved the last event ID, and the reconnection sent it.
        #expect(iterator.lastEventID == "44")
        #expect(seen.value == ["42", "44"])
    }

    @Test("each connection asks for text/event-stream without caching (request-accept, request-cache-control)")
    func requestHeaders() async throws {
        let (server, _) = try Self.server { _, _ in Self.eventStream("data: x\n\n") }
        for try await _ in Provider<Bare>().events(Bare(baseURL: server.baseURL), reconnection: .never) {}
        let request = try #require(server.requests.first)
        #expect(request.header("Accept") == "text/event-stream")
        #expect(request.header("Cache-Control") == "no-cache")
    }

    @Test("a target's own Accept is kept")
    func targetAcceptKept() async throws {
        struct JSONEvents: TargetType {
            var baseURL: URL
            var path: String { "/events" }
            var method: HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { ["accept": "text/event-stream, application/json"] }
        }
        let (server, _) = try Self.server { _, _ in Self.eventStream("data: x\n\n") }
        for try await _ in Provider<JSONEvents>().events(JSONEvents(baseURL: server.baseURL), reconnection: .never) {}
        #expect(server.requests.first?.header("Accept") == "text/event-stream, application/json")
    }

    @Test("a reconnection goes through the interceptor: an expired token is refreshed once in between")
    func refreshBetweenConnections() async throws {
        let valid = Locked("t1")
        let server = try LoopbackServer { request in
            guard request.header("Authorization") == "Bearer \(valid.value)" else { return ServerReply(status: 401) }
            if valid.value == "t1" {
                valid.withLock { $0 = "t2" }  // the token expires once the first stream is served
                return Self.eventStream("data: before\n\n")
            }
            return request.header("Last-Event-ID") == nil
                ? Self.eventStream("id: 9\ndata: after\n\n") : ServerReply(status: 204)
        }
        let authenticator = StreamTokens()
        let provider = Provider<Events>(
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: StreamToken(value: "t1")))

        var data: [String] = []
        for try await event in provider.events(Events(baseURL: server.baseURL), reconnection: Self.quick) {
            data.append(event.data)
        }

        #expect(data == ["before", "after"])
        #expect(authenticator.refreshes.value == 1)
    }

    @Test(
        "a wrong Content-Type ends the source at once (format-mime-bogus, format-mime-valid-bogus)",
        arguments: ["application/json", "text/x-bogus", "text/event-streams"])
    func notAnEventStream(_ type: String) async throws {
        let (server, seen) = try Self.server { _, _ in Self.eventStream("data: x\n\n", type: type) }
        var iterator = Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick)
            .makeAsyncIterator()
        let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
        #expect(error?.underlyingError as? StreamingError == .notAnEventStream(contentType: type))
        #expect(error?.response?.statusCode == 200)
        #expect(seen.value.count == 1)
    }

    @Test(
        "a Content-Type with parameters or a trailing semicolon is an event stream (format-mime-trailing-semicolon)",
        arguments: ["text/event-stream;", "text/event-stream; charset=utf-8", "Text/Event-Stream"])
    func eventStreamTypes(_ type: String) async throws {
        let (server, _) = try Self.server { _, _ in Self.eventStream("data: x\n\n", type: type) }
        var data: [String] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: .never) {
            data.append(event.data)
        }
        #expect(data == ["x"])
    }

    @Test(
        "a status other than 200 ends the source, 204 normally (request-status-error.window.js)",
        arguments: [204, 205, 210, 299, 404, 410])
    func statusEnds(_ status: Int) async throws {
        let (server, seen) = try Self.server { _, _ in
            .raw("HTTP/1.1 \(status) Status\r\nContent-Type: text/event-stream\r\nContent-Length: 0\r\n\r\n")
        }
        // `Bare` validates nothing, so the source itself must refuse what is not a 200.
        var iterator = Provider<Bare>().events(Bare(baseURL: server.baseURL), reconnection: Self.quick)
            .makeAsyncIterator()
        if status == 204 {
            #expect(try await iterator.next() == nil)
        } else {
            let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
            #expect(error?.response?.statusCode == status)
        }
        #expect(seen.value.count == 1)
    }

    @Test("without reconnection, one connection's events and then the end")
    func noReconnection() async throws {
        let (server, seen) = try Self.server { _, _ in Self.eventStream("data: only\n\n") }
        var data: [String] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: .never) {
            data.append(event.data)
        }
        #expect(data == ["only"])
        #expect(seen.value.count == 1)
    }
}

struct StreamToken: AuthenticationCredential {
    let value: String
    var requiresRefresh: Bool { false }
}

struct StreamTokens: Authenticator {
    let refreshes = Locked(0)

    func apply(_ credential: StreamToken, to request: URLRequest) -> URLRequest {
        var request = request
        request.setValue("Bearer \(credential.value)", forHTTPHeaderField: "Authorization")
        return request
    }

    func refresh(_ credential: StreamToken) async throws -> StreamToken {
        refreshes.withLock { $0 += 1 }
        return StreamToken(value: "t2")
    }

    func isAuthenticationFailure(_ request: URLRequest, response: Response) -> Bool {
        response.statusCode == 401
    }
}
