import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A terminator event ends an event stream: it is not handed over, the connection closes, and no
/// reconnection follows.
@Suite("EventTerminator")
struct EventTerminatorTests {
    typealias Events = EventSourceTests.Events

    @Test("events stop before `data: [DONE]`, the connection closes, and nothing reconnects")
    func doneData() async throws {
        let connections = Locked(0)
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            connections.withLock { $0 += 1 }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
            return .raw([
                .send(Data((head + "data: a\n\ndata: b\n\ndata: [DONE]\n\ndata: after\n\n").utf8)), .stall,
                .run { closed.record(.send) },
            ])
        }
        let recorder = CallRecorder()
        let provider = Provider<Events>(plugins: [RecordingPlugin("p", recorder: recorder)])

        var data: [String] = []
        for try await event in provider.events(Events(baseURL: server.baseURL), until: .data("[DONE]")) {
            data.append(event.data)
        }

        #expect(data == ["a", "b"])
        #expect(connections.value == 1)
        #expect(await closed.wait(for: .send, timeout: 5))
        #expect(recorder.events.last == .didFinishStream("p", .completed))
    }

    @Test("a terminator by event type, on one connection's events")
    func eventType() async throws {
        let server = try LoopbackServer { _ in
            EventSourceTests.eventStream("data: 1\n\nevent: end\ndata: bye\n\ndata: 2\n\n")
        }
        let streamed = try await Provider<Events>().stream(Events(baseURL: server.baseURL))
        var data: [String] = []
        for try await event in streamed.events(until: .event("end")) { data.append(event.data) }
        #expect(data == ["1"])
    }

    @Test("matching looks at the whole event")
    func matching() {
        let done = EventTerminator.data("[DONE]")
        #expect(done.ends(at: ServerSentEvent(data: "[DONE]")))
        #expect(!done.ends(at: ServerSentEvent(data: "[DONE] ")))
        #expect(EventTerminator.event("end").ends(at: ServerSentEvent(type: "end", data: "")))
        #expect(!EventTerminator.event("end").ends(at: ServerSentEvent(data: "end")))
    }
}

/// An event's data decoded as JSON.
@Suite("ServerSentEvent decoding")
struct ServerSentEventDecodingTests {
    struct Delta: Decodable, Equatable { let text: String }

    @Test("JSON data decodes; other data fails with objectMapping")
    func decoding() throws {
        #expect(try ServerSentEvent(data: #"{"text":"hi"}"#).decoded(as: Delta.self) == Delta(text: "hi"))
        #expect(throws: CourierError.self) { try ServerSentEvent(data: "[DONE]").decoded(as: Delta.self) }
    }

}

extension EventTerminatorTests {
    @Test("a stream that ends before its terminator is cut short: the events before it, then an error")
    func endedBeforeTerminator() async throws {
        // A body without a length ended by closing the connection: the close looks like an end.
        let server = try LoopbackServer { _ in
            EventSourceTests.eventStream("data: Once\n\ndata: upon\n\ndata: {\"choices\": [{\"del")
        }
        var data: [String] = []
        let error = await #expect(throws: CourierError.self) {
            let streamed = try await Provider<Events>().stream(Events(baseURL: server.baseURL))
            for try await event in streamed.events(until: .data("[DONE]")) { data.append(event.data) }
        }
        #expect(data == ["Once", "upon"])
        #expect(error?.underlyingError as? StreamingError == .endedBeforeTerminator)
        #expect(error?.response?.statusCode == 200)
    }

    @Test("an event source whose stream ends before its terminator reconnects, and ends at the terminator")
    func eventSourceReconnectsBeforeTerminator() async throws {
        let (server, seen) = try EventSourceTests.server { count, _ in
            count == 1
                ? EventSourceTests.eventStream("id: 1\ndata: a\n\n") : EventSourceTests.eventStream("data: [DONE]\n\n")
        }
        var data: [String] = []
        for try await event in Provider<Events>().events(
            Events(baseURL: server.baseURL), reconnection: EventSourceTests.quick, until: .data("[DONE]"))
        {
            data.append(event.data)
        }
        #expect(data == ["a"])
        #expect(seen.value == ["-", "1"])
    }

    @Test("an event source that may not reconnect throws when its stream ends before the terminator")
    func eventSourceCutShort() async throws {
        let (server, seen) = try EventSourceTests.server { _, _ in EventSourceTests.eventStream("data: a\n\n") }
        let error = await #expect(throws: CourierError.self) {
            for try await _ in Provider<EventReconnectionTests.Chat>().events(
                EventReconnectionTests.Chat(baseURL: server.baseURL), reconnection: EventSourceTests.quick,
                until: .data("[DONE]"))
            {}
        }
        #expect(error?.underlyingError as? StreamingError == .endedBeforeTerminator)
        #expect(seen.value.count == 1)
    }
}
