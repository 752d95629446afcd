import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The streamed cases that go through a `Provider` on the transport: an event source that must
/// not lose or repeat an event across a cut or a server restart, a stream's idle timeout, and a
/// stalled reader's backlog.
extension ConformanceRun {
    /// A target on `server` whose waits are bounded by `timeout`.
    struct StreamTarget: TargetType {
        let baseURL: URL
        var path: String { "/events" }
        var method: Courier.HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var timeoutInterval: TimeInterval?
    }

    /// A reconnection policy fast enough for a test: tenths of a second instead of seconds.
    static let quickReconnection = EventReconnection(
        delay: 0.05, maximumAttempts: 100, minimumDelay: 0.02, maximumDelay: 0.3)

    /// The head of a chunked event stream.
    static let eventStreamHead = Data(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            .utf8)

    /// `text` as one chunk of a chunked body.
    static func chunk(_ text: String) -> Data {
        Data((String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n").utf8)
    }

    /// Event `number` on the wire, with its ID.
    static func event(_ number: Int) -> String {
        "id: \(number)\ndata: event \(number)\n\n"
    }

    func performEventStreamCase() async throws {
        switch testCase {
        case .streamedEventsResumeAfterCut: try await resumeAfterCut()
        case .streamedEventsSurviveRestart: try await surviveRestart()
        case .streamedIdleTimeout: try await idleTimeout()
        case .streamedBacklogBound: try await backlogBound()
        default: throw fail("not an event stream case")
        }
    }

    /// Reads every event of `source`, failing the case when it throws.
    private func collect(_ source: EventSource<StreamTarget>) async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        do {
            for try await event in source { events.append(event) }
        } catch {
            throw fail("the event source threw \(error) after \(events.map(\.data))")
        }
        return events
    }

    /// A connection cut after an event's `id` but before its blank line resumes after the event
    /// before it: that event arrives once, whole.
    private func resumeAfterCut() async throws {
        let seen = Locked<[String]>([])
        let server = try LoopbackServer { request in
            let count = seen.withLock { seen in
                seen.append(request.header("Last-Event-ID") ?? "-")
                return seen.count
            }
            switch count {
            case 1:
                // No last chunk: the connection closes mid-body, a broken transfer.
                return .raw([.send(Self.eventStreamHead + Self.chunk(Self.event(1)) + Self.chunk("id: 2\ndata: ev"))])
            case 2:
                let rest = Self.event(2) + Self.event(3)
                return .raw([.send(Self.eventStreamHead + Self.chunk(rest) + Data("0\r\n\r\n".utf8))])
            default: return ServerReply(status: 204)
            }
        }
        let provider = Provider<StreamTarget>(transport: transport)
        let events = try await collect(
            provider.events(StreamTarget(baseURL: server.baseURL), reconnection: Self.quickReconnection))
        try expect(events.map(\.data) == ["event 1", "event 2", "event 3"], "events \(events.map(\.data))")
        try expect(seen.value == ["-", "1", "3"], "Last-Event-ID sent: \(seen.value)")
    }

    /// The server goes away in the middle of an event and comes back on the same port two seconds
    /// later: the connections refused meanwhile are retried, and every event arrives once, in
    /// order.
    private func surviveRestart() async throws {
        let restarted = Locked<LoopbackServer?>(nil)
        let failedConnections = Locked(0)
        let first = Locked<LoopbackServer?>(nil)
        let handler = Self.numberedEvents(upTo: 10) { cutAfter in
            // The first server stops after event 3, in the middle of event 4.
            guard cutAfter == 3, let server = first.value, restarted.value == nil else { return nil }
            return {
                server.stop()
                Thread.sleep(forTimeInterval: 2)
                restarted.withLock { $0 = try? LoopbackServer(port: server.port, handler: Self.restartedHandler) }
            }
        }
        let server = try LoopbackServer(handler: handler)
        first.withLock { $0 = server }
        defer { restarted.value?.stop() }
        let provider = Provider<StreamTarget>(
            transport: transport, plugins: [FailureCounter(failures: failedConnections)])
        let events = try await collect(
            provider.events(StreamTarget(baseURL: server.baseURL), reconnection: Self.quickReconnection))
        let expected = (1...10).map { "event \($0)" }
        try expect(restarted.value != nil, "the server did not come back on port \(server.port)")
        try expect(events.map(\.data) == expected, "events \(events.map(\.data))")
        try expect(failedConnections.value >= 1, "no connection was refused while the server was away")
    }

    /// The handler of the server that comes back: the same events, never stopping.
    private static let restartedHandler = numberedEvents(upTo: 10) { _ in nil }

    /// A handler that sends events 1…`count` after the request's `Last-Event-ID`, 50 ms apart,
    /// then ends the body; 204 once every event was sent. `cut(n)` may give a step to run after
    /// event n, after which the event n + 1 is cut short.
    static func numberedEvents(
        upTo count: Int, cut: @escaping @Sendable (Int) -> (@Sendable () -> Void)?
    ) -> LoopbackServer.Handler {
        { request in
            let after = Int(request.header("Last-Event-ID") ?? "") ?? 0
            guard after < count else { return ServerReply(status: 204) }
            var steps: [ServerReply.RawStep] = [.send(eventStreamHead)]
            for number in (after + 1)...count {
                steps.append(.send(chunk(event(number))))
                if let stop = cut(number) {
                    steps += [.send(chunk("id: \(number + 1)\ndata: ev")), .run(stop)]
                    return .raw(steps)
                }
                steps.append(.pause(0.05))
            }
            return .raw(steps + [.send(Data("0\r\n\r\n".utf8))])
        }
    }

    /// Events every 100 ms for 3 s on a target with a 1 s timeout arrive whole; a stream that
    /// then stalls ends with `timedOut` once no chunk came for 1 s.
    private func idleTimeout() async throws {
        let ticks = 30
        let server = try LoopbackServer { request in
            var steps: [ServerReply.RawStep] = [.send(Self.eventStreamHead)]
            for number in 1...ticks {
                steps += [.pause(0.1), .send(Self.chunk(Self.event(number)))]
            }
            return .raw(steps + [request.path.contains("stall") ? .stall : .send(Data("0\r\n\r\n".utf8))])
        }
        let provider = Provider<StreamTarget>(transport: transport)
        var target = StreamTarget(baseURL: server.baseURL)
        target.timeoutInterval = 1
        let start = Date()
        var count = 0
        do {
            for try await _ in try await provider.stream(target).events { count += 1 }
        } catch {
            throw fail("a stream with an event every 100 ms ended after \(count) events, with \(error)")
        }
        try expect(count == ticks, "\(count) events of \(ticks)")
        try expect(Date().timeIntervalSince(start) >= 2.9, "the events came faster than they were sent")

        let stalled = StreamTarget(baseURL: server.baseURL.appendingPathComponent("stall"), timeoutInterval: 1)
        count = 0
        let stallStart = Date()
        do {
            for try await _ in try await provider.stream(stalled).events { count += 1 }
            throw fail("a stalled stream ended normally after \(count) events")
        } catch let error as CourierError {
            let kind = (error.underlyingError as? TransportFailure)?.kind
            try expect(kind == .timedOut, "a stalled stream ended with \(error), not timedOut")
        }
        let waited = Date().timeIntervalSince(stallStart)
        try expect(count == ticks, "\(count) events of \(ticks) before the stall")
        try expect(waited >= 3.9 && waited < 9, "the stall timed out \(waited) s after the request")
    }
}

/// Counts the requests that failed at the transport: the connections refused while a server was
/// away.
private struct FailureCounter: PluginType {
    let failures: Locked<Int>

    func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
        if case .failure(let error) = result, error.stage == .transport { failures.withLock { $0 += 1 } }
    }
}
