import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// Streamed responses and Server-Sent Events through the pipeline on this engine, as on
    /// URLSession.
    @Suite("Streaming on AsyncHTTPClient")
    struct StreamingTests {
        @Test("lines arrive while the server still holds the rest of the body")
        func lines() async throws {
            let release = DispatchSemaphore(value: 0)
            let server = try LoopbackServer { _ in
                .raw([
                    .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\nfirst\n".utf8)),
                    .run { _ = release.wait(timeout: .now() + 10) },
                    .send(Data("second\nthird".utf8)),
                ])
            }
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport())
            let streamed = try await provider.stream(Echo(server, "/lines"))
            var iterator = streamed.lines.makeAsyncIterator()

            let first = try await iterator.next()
            release.signal()
            var rest: [String] = []
            while let line = try await iterator.next() { rest.append(line) }

            #expect(first == "first")
            #expect(rest == ["second", "third"])
        }

        @Test("a streamed body that stalls ends with timedOut at the request's timeout, not the caller's task")
        func stalledStreamTimesOut() async throws {
            let server = try LoopbackServer { _ in
                .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\nfirst\n".utf8)), .stall])
            }
            let provider = Provider<Limited>(transport: AsyncHTTPClientTransport())
            let start = Date()
            let streamed = try await provider.stream(Limited(server, "/stall", timeout: 0.5))
            var lines: [String] = []
            let error = await capture {
                for try await line in streamed.lines { lines.append(line) }
            }
            let elapsed = Date().timeIntervalSince(start)

            #expect(lines == ["first"])
            #expect((error?.underlyingError as? TransportFailure)?.kind == .timedOut, "\(String(describing: error))")
            #expect(elapsed >= 0.5 && elapsed < 5, "ended after \(elapsed) s")
            // The timer cancels the read it interrupts, never the task that reads.
            #expect(!Task.isCancelled)
        }

        @Test("within their timeout, requests and a body streamed in several chunks arrive whole")
        func withinTimeout() async throws {
            let server = try LoopbackServer { request in
                guard request.path == "/lines" else { return .json(#"{"ok":true}"#) }
                return .raw([
                    .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 18\r\n\r\nfirst\n".utf8)),
                    .send(Data("second\n".utf8)), .send(Data("third".utf8)),
                ])
            }
            let provider = Provider<Limited>(transport: AsyncHTTPClientTransport())
            let start = Date()
            for _ in 0..<20 {
                let response = try await provider.request(Limited(server, "/item", timeout: 5))
                #expect(response.data == Data(#"{"ok":true}"#.utf8))
            }
            let streamed = try await provider.stream(Limited(server, "/lines", timeout: 5))
            var lines: [String] = []
            for try await line in streamed.lines { lines.append(line) }

            #expect(lines == ["first", "second", "third"])
            // Each exchange ends when its answer does, not at its timeout.
            #expect(Date().timeIntervalSince(start) < 5)
        }

        @Test("Server-Sent Events reconnect with Last-Event-ID, and 204 ends them")
        func events() async throws {
            let seen = NIOLockedValueBox<[String]>([])
            let server = try LoopbackServer { request in
                let count = seen.withLockedValue { seen in
                    seen.append(request.header("Last-Event-ID") ?? "-")
                    return seen.count
                }
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
                switch count {
                case 1: return .raw(head + "retry: 10\nid: 1\ndata: a\n\n")
                case 2: return .raw(head + "id: 2\ndata: b\n\n")
                default: return ServerReply(status: 204)
                }
            }
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport())
            var data: [String] = []
            for try await event in provider.events(Echo(server, "/events")) { data.append(event.data) }

            #expect(data == ["a", "b"])
            #expect(seen.withLockedValue { $0 } == ["-", "1", "2"])
        }

        @Test("a terminator closes the connection at once; the hooks end with didFinishStream completed")
        func terminator() async throws {
            let closed = CallRecorder()
            let server = try LoopbackServer { _ in
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                return .raw([
                    .send(Data((head + "data: a\n\ndata: [DONE]\n\ndata: after\n\n").utf8)), .stall,
                    .run { closed.record(.send) },
                ])
            }
            let recorder = CallRecorder()
            let provider = Provider<Echo>(
                transport: AsyncHTTPClientTransport(), plugins: [RecordingPlugin("p", recorder: recorder)])

            var data: [String] = []
            for try await event in provider.events(Echo(server, "/events"), until: .data("[DONE]")) {
                data.append(event.data)
            }

            #expect(data == ["a"])
            #expect(await closed.wait(for: .send, timeout: 5))
            #expect(
                recorder.events.map(\.description) == [
                    "p.prepare", "p.willSend#1", "p.didReceive success(200)", "p.process success(200)",
                    "p.didFinishStream completed",
                ])
        }
    }
}

/// A target with a timeout, for any path of a loopback server.
private struct Limited: TargetType {
    let baseURL: URL
    let path: String
    let timeoutInterval: TimeInterval?
    var method: HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }

    init(_ server: LoopbackServer, _ path: String, timeout: TimeInterval) {
        baseURL = server.baseURL
        self.path = path
        timeoutInterval = timeout
    }
}
