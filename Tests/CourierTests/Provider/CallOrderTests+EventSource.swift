import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The contract for an event source: each connection is a whole request through the pipeline,
/// and its stream's end is reported before the next connection starts.
extension CallOrderTests {
    @Test("an event source that reconnects after a cut and after a refused connection")
    func eventSourceReconnections() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk: @Sendable (String) -> String = { String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n" }
        let server = try LoopbackServer { request in
            switch request.header("Last-Event-ID") {
            // Cut in the middle of event 2: no last chunk, the connection closes.
            case nil: .raw(head + chunk("id: 1\ndata: one\n\n") + chunk("id: 2\ndata: t"))
            case "1": .raw(head + chunk("id: 2\ndata: two\n\n") + "0\r\n\r\n")
            default: ServerReply(status: 204)
            }
        }
        let closed = try ClosedPort()
        let refused = closed.port
        // The second connection goes to a port where nothing listens.
        let connections = Locked(0)
        let recorder = CallRecorder()
        let provider = Provider<OrderTarget>(
            endpointClosure: { target in
                let number = connections.withLock { count in
                    count += 1
                    return count
                }
                let base = number == 2 ? URL(string: "http://127.0.0.1:\(refused)")! : target.baseURL
                return Provider.defaultEndpointMapping(for: OrderTarget(baseURL: base))
            },
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("P1", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder))

        var data: [String] = []
        for try await event in provider.events(
            OrderTarget(baseURL: server.baseURL), reconnection: EventSourceTests.quick)
        {
            data.append(event.data)
        }

        #expect(data == ["one", "two"])
        let connected: (HookEvent.StreamEnd) -> [HookEvent] = { end in
            [HookEvent].attempt(1, .success(200))
                + [.didReceive("P1", .success(200)), .process("P1", .success(200)), .didFinishStream("P1", end)]
        }
        let refusedConnection =
            [HookEvent].attempt(1, .failure(.transport))
            + [
                .retry(attempt: 1, .failure(.transport)), .didReceive("P1", .failure(.transport)),
                .process("P1", .failure(.transport)),
            ]
        let noContent =
            [HookEvent].attempt(1, .success(204))
            + [.didReceive("P1", .success(204)), .process("P1", .success(204)), .didFinishStream("P1", .completed)]
        #expect(
            recorder.events == connected(.failed(.transport)) + refusedConnection + connected(.completed) + noContent)
    }
}
