import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Streamed responses through the whole pipeline: lines before the body ends, the recorded hook
/// sequence, validation and retries on the head, NDJSON, early ends, and stubs.
@Suite("Provider streaming")
struct ProviderStreamingTests {
    struct StreamTarget: TargetType {
        var baseURL: URL
        var path: String
        var sampleData: Data = Data()
        var method: HTTPMethod { .get }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
    }

    @Test(
        "a streamed request follows a redirect above the engine: the jar's cookie on the next hop, the final answer streamed"
    )
    func streamThroughRedirect() async throws {
        let server = try LoopbackServer { request in
            guard request.path == "/events" else {
                return ServerReply(
                    status: 302, headers: ["Location": "/events", "Set-Cookie": "hop=1; Path=/"],
                    body: Data("moved".utf8))
            }
            return .text("cookie=\(request.header("Cookie") ?? "none")\nlast")
        }
        defer { server.stop() }
        let provider = Provider<StreamTarget>(options: ProviderOptions(cookies: CookieJar()))
        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/old"))
        var lines: [String] = []
        for try await line in streamed.lines { lines.append(line) }

        #expect(streamed.statusCode == 200)
        #expect(lines == ["cookie=hop=1", "last"])
        #expect(server.requests.map(\.path) == ["/old", "/events"])
    }

    @Test("the first line reaches the caller while the server still holds the rest")
    func linesAsTheyArrive() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n\r\nfirst\n".utf8)),
                .run { _ = release.wait(timeout: .now() + 10) },
                .send(Data("second\nthird".utf8)),
            ])
        }
        let streamed = try await Provider<StreamTarget>().stream(StreamTarget(baseURL: server.baseURL, path: "/lines"))
        var lines = streamed.lines.makeAsyncIterator()

        let first = try await lines.next()
        release.signal()
        var rest: [String] = []
        while let line = try await lines.next() { rest.append(line) }

        #expect(first == "first")
        #expect(rest == ["second", "third"])
        #expect(streamed.statusCode == 200)
    }

    @Test("hooks run once, in the contract's order, when the head is accepted")
    func hookSequence() async throws {
        let server = try LoopbackServer { _ in ServerReply(body: Data("a\nb\n".utf8)) }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(
            transport: RecordingTransport(URLSessionTransport(), recorder: recorder),
            plugins: [RecordingPlugin("p", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder))

        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/s"))
        let atHead = recorder.events
        var lines: [String] = []
        for try await line in streamed.lines { lines.append(line) }

        #expect(
            atHead.map(\.description) == [
                "p.prepare", "p.willSend#1", "adapt#1", "p.willTransmit#1", "send",
                "p.didCompleteAttempt#1 success(200)",
                "p.didReceive success(200)", "p.process success(200)",
            ])
        #expect(recorder.events == atHead + [.didFinishStream("p", .completed)])
        #expect(lines == ["a", "b"])
    }

    @Test("a rejected head is retried before any byte reaches the caller, and hooks record it")
    func retriedHead() async throws {
        let calls = Locked(0)
        let server = try LoopbackServer { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call == 1 ? ServerReply(status: 503, body: Data("busy".utf8)) : ServerReply(body: Data("ok\n".utf8))
        }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(
            plugins: [RecordingPlugin("p", recorder: recorder, observesAttempts: true)],
            interceptor: RecordingInterceptor(recorder: recorder, retry: { _, _ in .retry }))

        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/retry"))
        var lines: [String] = []
        for try await line in streamed.lines { lines.append(line) }

        #expect(lines == ["ok"])
        #expect(
            recorder.events.map(\.description) == [
                "p.prepare", "p.willSend#1", "adapt#1", "p.willTransmit#1",
                "p.didCompleteAttempt#1 failure(validation)",
                "retry#1 failure(validation)", "p.prepare", "p.willSend#2", "adapt#2", "p.willTransmit#2",
                "p.didCompleteAttempt#2 success(200)", "p.didReceive success(200)", "p.process success(200)",
                "p.didFinishStream completed",
            ])
    }

    @Test("a head the target does not accept fails with the status and the start of the body")
    func rejectedHead() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 404, body: Data("no such stream".utf8)) }
        let error = await capture {
            try await Provider<StreamTarget>().stream(StreamTarget(baseURL: server.baseURL, path: "/missing"))
        }
        guard case .statusCode(let response)? = error else {
            Issue.record("expected .statusCode, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == 404)
        #expect(String(decoding: response.data, as: UTF8.self) == "no such stream")
    }

    @Test("NDJSON lines decode one by one; a bad line ends with objectMapping")
    func ndjson() async throws {
        struct Token: Decodable, Equatable { let text: String }
        let server = try LoopbackServer { request in
            request.path == "/good"
                ? ServerReply(body: Data("{\"text\":\"a\"}\n\n{\"text\":\"b\"}".utf8))
                : ServerReply(body: Data("{\"text\":\"a\"}\nnot json\n".utf8))
        }
        let provider = Provider<StreamTarget>()
        var tokens: [Token] = []
        for try await token in try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/good"))
            .decodedLines(as: Token.self)
        {
            tokens.append(token)
        }
        #expect(tokens == [Token(text: "a"), Token(text: "b")])

        let bad = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/bad"))
        await #expect(throws: CourierError.self) {
            for try await _ in bad.decodedLines(as: Token.self) {}
        }
    }

    @Test("breaking out of the iteration closes the connection promptly")
    func earlyEnd() async throws {
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\nline\n".utf8)), .stall,
                .run { closed.record(.send) },
            ])
        }
        let streamed = try await Provider<StreamTarget>().stream(
            StreamTarget(baseURL: server.baseURL, path: "/endless"))
        for try await _ in streamed.lines { break }
        #expect(await closed.wait(for: .send, timeout: 5))
    }

    @Test("a stubbed target streams its sample data through the same pipeline")
    func stubbed() async throws {
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(
            stubClosure: Provider.immediatelyStub, plugins: [RecordingPlugin("p", recorder: recorder)])
        let target = StreamTarget(
            baseURL: URL(string: "http://127.0.0.1:9")!, path: "/", sampleData: Data("one\ntwo\n".utf8))

        var lines: [String] = []
        for try await line in try await provider.stream(target).lines { lines.append(line) }

        #expect(lines == ["one", "two"])
        #expect(
            recorder.events.map(\.description).suffix(3) == [
                "p.didReceive success(200)", "p.process success(200)", "p.didFinishStream completed",
            ])
    }
}
