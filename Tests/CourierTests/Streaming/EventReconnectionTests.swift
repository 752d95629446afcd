import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The reconnection policy of an event source: its delays, and every failure to connect or to
/// read counting against its attempts.
@Suite("EventReconnection")
struct EventReconnectionTests {
    typealias Events = EventSourceTests.Events
    static let quick = EventSourceTests.quick

    @Test("the wait starts at the reconnection time, floored, and its bound doubles per failure up to the cap")
    func delays() {
        let policy = EventReconnection()
        #expect(policy.delay == 3 && policy.minimumDelay == 1 && policy.maximumDelay == 30)
        #expect(policy.maximumAttempts == 10 && policy.maximumRetryAfter == 60)
        #expect(policy.retriesFirstConnection && policy.reconnectsAfterEnd && !policy.reconnectsNonIdempotentRequests)
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: nil, retryAfter: nil, random: 0) == 3)
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: nil, retryAfter: nil, random: 1) == 4.5)
        #expect(policy.delay(beforeAttempt: 2, reconnectionTime: nil, retryAfter: nil, random: 1) == 9)
        #expect(policy.delay(beforeAttempt: 3, reconnectionTime: nil, retryAfter: nil, random: 1) == 18)
        #expect(policy.delay(beforeAttempt: 4, reconnectionTime: nil, retryAfter: nil, random: 1) == 30)
        #expect(policy.delay(beforeAttempt: 500, reconnectionTime: nil, retryAfter: nil, random: 1) == 30)
        // The server's retry replaces the delay; `retry: 0` is floored, so no client spins.
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: 0.5, retryAfter: nil, random: 0) == 1)
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: 0, retryAfter: nil, random: 1) == 1.5)
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: 10, retryAfter: nil, random: 0.5) == 12.5)
        // A retry or Retry-After longer than the cap is still honoured, as the lower bound.
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: 40, retryAfter: nil, random: 1) == 40)
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: nil, retryAfter: 45, random: 0.7) == 45)
        #expect(policy.delay(beforeAttempt: 2, reconnectionTime: nil, retryAfter: 5, random: 0) == 5)
        // Picks outside 0...1 are clamped.
        #expect(policy.delay(beforeAttempt: 1, reconnectionTime: nil, retryAfter: nil, random: -4) == 3)
    }

    @Test("refused reconnections count against the attempts; the error says how many, and the last cause")
    func refusedReconnections() async throws {
        let closed = try ClosedPort()
        let port = closed.port
        let first = try LoopbackServer { _ in EventSourceTests.eventStream("id: 1\ndata: a\n\n") }
        defer { first.stop() }
        // One server for the first connection; every later one goes to the refused port.
        let provider = Provider<Events>(
            endpointClosure: { target in
                let base = first.requests.isEmpty ? target.baseURL : URL(string: "http://127.0.0.1:\(port)")!
                return Provider.defaultEndpointMapping(for: Events(baseURL: base))
            })
        var policy = Self.quick
        policy.maximumAttempts = 3
        var iterator = provider.events(Events(baseURL: first.baseURL), reconnection: policy).makeAsyncIterator()
        #expect(try await iterator.next()?.data == "a")
        let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
        let streaming = try #require(error?.underlyingError as? StreamingError)
        #expect(streaming.code == .reconnectionsExhausted)
        #expect(streaming.attempts == 3)
        #expect((streaming.lastError?.underlyingError as? TransportFailure)?.kind == .cannotConnect)
        #expect("\(streaming)".contains("3 times in a row"))
    }

    @Test("a refused first connection is retried by default, and the source resumes once the server is up")
    func firstConnectionRetried() async throws {
        // A port where nothing listens yet; the server starts on it 0.3 s later.
        let reserved = try ClosedPort()
        let port = reserved.port
        let started = Locked<LoopbackServer?>(nil)
        defer { started.value?.stop() }
        let failures = Locked(0)
        let provider = Provider<Events>(plugins: [FailedConnections(count: failures)])
        var policy = Self.quick
        policy.maximumAttempts = 50
        policy.maximumDelay = 0.05
        let source = provider.events(Events(baseURL: URL(string: "http://127.0.0.1:\(port)")!), reconnection: policy)
        let starter = Task {
            try await Task.sleep(nanoseconds: 300_000_000)
            reserved.release()
            let server = try LoopbackServer(port: port) { request in
                request.header("Last-Event-ID") == nil
                    ? EventSourceTests.eventStream("id: 1\ndata: up\n\n") : ServerReply(status: 204)
            }
            started.withLock { $0 = server }
        }
        var data: [String] = []
        for try await event in source { data.append(event.data) }
        try await starter.value
        #expect(data == ["up"])
        #expect(failures.value >= 1)
    }

    @Test("with retriesFirstConnection off, a refused first connection throws at once, unwrapped")
    func firstConnectionNotRetried() async throws {
        let closed = try ClosedPort()
        let port = closed.port
        var policy = Self.quick
        policy.retriesFirstConnection = false
        var iterator = Provider<Events>().events(
            Events(baseURL: URL(string: "http://127.0.0.1:\(port)")!), reconnection: policy
        ).makeAsyncIterator()
        let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
        #expect((error?.underlyingError as? TransportFailure)?.kind == .cannotConnect)
    }

    @Test("a 503 head is retried after its Retry-After; the events then arrive")
    func retryAfter() async throws {
        let (server, seen) = try EventSourceTests.server { count, _ in
            switch count {
            case 1: ServerReply(status: 503, headers: ["Retry-After": "1"])
            case 2: EventSourceTests.eventStream("id: 1\ndata: back\n\n")
            default: ServerReply(status: 204)
            }
        }
        let start = Date()
        var data: [String] = []
        for try await event in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick) {
            data.append(event.data)
        }
        #expect(data == ["back"])
        #expect(seen.value == ["-", "-", "1"])
        #expect(Date().timeIntervalSince(start) >= 1)
    }

    @Test("a Retry-After longer than the policy honours ends the source with that answer")
    func retryAfterTooLong() async throws {
        let (server, seen) = try EventSourceTests.server { _, _ in
            ServerReply(status: 429, headers: ["Retry-After": "3600"])
        }
        var iterator = Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: Self.quick)
            .makeAsyncIterator()
        let error = await #expect(throws: CourierError.self) { _ = try await iterator.next() }
        #expect(error?.response?.statusCode == 429)
        #expect(seen.value.count == 1)
    }

    @Test(
        "a line or an event past its limit ends the source with that error, without reconnecting",
        arguments: [
            (StreamingLimits(maximumLineLength: 64), StreamingError.lineTooLong(limit: 64)),
            (StreamingLimits(maximumEventLength: 64), StreamingError.eventTooLarge(limit: 64)),
        ])
    func limits(_ limits: StreamingLimits, _ expected: StreamingError) async throws {
        // One line of 106 bytes, whose event has 100 bytes of data: past either limit.
        let long = "data: " + String(repeating: "z", count: 100) + "\n"
        let (server, seen) = try EventSourceTests.server { _, _ in
            EventSourceTests.eventStream("data: first\n\n" + long + "\n")
        }
        var data: [String] = []
        let error = await #expect(throws: CourierError.self) {
            for try await event in Provider<Events>().events(
                Events(baseURL: server.baseURL), reconnection: Self.quick, limits: limits)
            {
                data.append(event.data)
            }
        }
        #expect(data == ["first"])
        #expect(error?.underlyingError as? StreamingError == expected)
        #expect(error?.response?.statusCode == 200)
        #expect(seen.value.count == 1)
    }

    @Test("a server sending retry: 0 and one event per connection cannot make the client spin")
    func retryZeroFloored() async throws {
        let times = Locked<[Date]>([])
        let server = try LoopbackServer { _ in
            times.withLock { $0.append(Date()) }
            return EventSourceTests.eventStream("retry: 0\ndata: x\n\n")
        }
        let policy = EventReconnection(delay: 3, maximumAttempts: 5, minimumDelay: 0.2, maximumDelay: 1)
        var count = 0
        for try await _ in Provider<Events>().events(Events(baseURL: server.baseURL), reconnection: policy) {
            count += 1
            if count == 4 { break }
        }
        // Every reconnection waited at least the floor, though the server asked for none.
        let gaps = zip(times.value.dropFirst(), times.value).map { $0.timeIntervalSince($1) }
        #expect(gaps.count == 3)
        #expect(gaps.allSatisfy { $0 >= 0.2 }, "gaps between connections: \(gaps)")
    }
}

/// Counts requests that failed at the transport.
struct FailedConnections: PluginType {
    let count: Locked<Int>

    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
        if case .failure(let error) = result, error.stage == .transport { count.withLock { $0 += 1 } }
    }
}

extension EventReconnectionTests {
    /// A POST event stream, as completion APIs serve them.
    struct Chat: TargetType {
        var baseURL: URL
        var path: String { "/chat" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestParameters(parameters: ["prompt": "Hi"], encoding: JSONEncoding.default) }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test("a POST stream that breaks is not sent again: the error ends the source, the server saw one request")
    func postNotResent() async throws {
        let (server, seen) = try EventSourceTests.server { _, _ in
            .raw(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "9\r\ndata: a\n\n\r\n")
        }
        var data: [String] = []
        let error = await #expect(throws: CourierError.self) {
            for try await event in Provider<Chat>().events(Chat(baseURL: server.baseURL), reconnection: Self.quick) {
                data.append(event.data)
            }
        }
        #expect(data == ["a"])
        #expect(error?.stage == .transport)
        #expect(seen.value.count == 1)
    }

    @Test("a POST stream is reconnected when the policy says the server resumes after Last-Event-ID")
    func postResentWhenAsked() async throws {
        let (server, seen) = try EventSourceTests.server { count, _ in
            count == 1 ? EventSourceTests.eventStream("id: 1\ndata: a\n\n") : ServerReply(status: 204)
        }
        var policy = Self.quick
        policy.reconnectsNonIdempotentRequests = true
        var data: [String] = []
        for try await event in Provider<Chat>().events(Chat(baseURL: server.baseURL), reconnection: policy) {
            data.append(event.data)
        }
        #expect(data == ["a"])
        #expect(seen.value == ["-", "1"])
    }
}
