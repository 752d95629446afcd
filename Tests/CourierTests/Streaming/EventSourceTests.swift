import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server-Sent Events across reconnections: `Last-Event-ID`, the server's `retry`, 204 to stop,
/// a token refreshed between two connections, and a response that is not an event stream.
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

    /// An event stream of `body`, closed after it.
    static func eventStream(_ body: String) -> ServerReply {
        .raw("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n" + body)
    }

    @Test("a closed stream is reconnected with Last-Event-ID after the server's retry; 204 ends it")
    func reconnection() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            let count = seen.withLock { seen in
                seen.append(request.header("Last-Event-ID") ?? "-")
                return seen.count
            }
            switch count {
            case 1: return Self.eventStream("retry: 10\nid: 1\ndata: a\n\n")
            case 2: return Self.eventStream("id: 2\ndata: b\n\ndata: unterminated")
            default: return ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL)) {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "2")])
        #expect(seen.value == ["-", "1", "2"])
    }

    @Test("the last event ID carries over a connection whose events set none, as the standard says")
    func lastEventIDPersists() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            let count = seen.withLock { seen in
                seen.append(request.header("Last-Event-ID") ?? "-")
                return seen.count
            }
            switch count {
            case 1: return Self.eventStream("retry: 10\nid: 1\ndata: a\n\n")
            case 2: return Self.eventStream("data: b\n\n")
            default: return ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL)) {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(data: "a", lastEventID: "1"), ServerSentEvent(data: "b", lastEventID: "1")])
        #expect(seen.value == ["-", "1", "1"])
    }

    @Test("a chunked stream that breaks mid-event is reconnected with the last event ID; the torn event is dropped")
    func brokenChunkedStream() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            let count = seen.withLock { seen in
                seen.append(request.header("Last-Event-ID") ?? "-")
                return seen.count
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            let chunk = { (text: String) in String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }
            switch count {
            // No last chunk: the connection closes mid-body, which is a broken transfer.
            case 1: return .raw(head + chunk("retry: 10\nid: 5\ndata: whole\n\n") + chunk("id: 6\ndata: torn"))
            case 2: return .raw(head + chunk("id: 7\ndata: resumed\n\n") + "0\r\n\r\n")
            default: return ServerReply(status: 204)
            }
        }
        var events: [ServerSentEvent] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL)) {
            events.append(event)
        }
        #expect(
            events == [
                ServerSentEvent(data: "whole", lastEventID: "5"), ServerSentEvent(data: "resumed", lastEventID: "7"),
            ]
        )
        #expect(seen.value == ["-", "6", "7"])
    }

    @Test("a reconnection goes through the interceptor: an expired token is refreshed once in between")
    func refreshBetweenConnections() async throws {
        let valid = Locked("t1")
        let server = try LoopbackServer { request in
            guard request.header("Authorization") == "Bearer \(valid.value)" else { return ServerReply(status: 401) }
            if valid.value == "t1" {
                valid.withLock { $0 = "t2" }  // the token expires once the first stream is served
                return Self.eventStream("retry: 10\ndata: before\n\n")
            }
            return request.header("Last-Event-ID") == nil
                ? Self.eventStream("retry: 10\nid: 9\ndata: after\n\n") : ServerReply(status: 204)
        }
        let authenticator = StreamTokens()
        let provider = Provider<Events>(
            interceptor: AuthenticationInterceptor(authenticator: authenticator, credential: StreamToken(value: "t1")))

        var data: [String] = []
        for try await event in provider.events(Events(baseURL: server.baseURL)) { data.append(event.data) }

        #expect(data == ["before", "after"])
        #expect(authenticator.refreshes.value == 1)
    }

    @Test("a response that is not text/event-stream fails, naming its type")
    func notAnEventStream() async throws {
        let server = try LoopbackServer { _ in
            ServerReply(headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        }
        var iterator = Provider<Events>().events(Events(baseURL: server.baseURL)).makeAsyncIterator()
        do {
            _ = try await iterator.next()
            Issue.record("a JSON response was read as an event stream")
        } catch {
            guard case .underlying(let underlying, _)? = error as? CourierError else {
                Issue.record("expected .underlying(notAnEventStream), got \(error)")
                return
            }
            #expect(underlying as? StreamingError == .notAnEventStream(contentType: "application/json"))
        }
    }

    @Test("without reconnection, one connection's events and then the end")
    func noReconnection() async throws {
        let connections = Locked(0)
        let server = try LoopbackServer { _ in
            connections.withLock { $0 += 1 }
            return Self.eventStream("data: only\n\n")
        }
        var data: [String] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: .never) {
            data.append(event.data)
        }
        #expect(data == ["only"])
        #expect(connections.value == 1)
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
