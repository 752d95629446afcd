import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stubbed target's sample stream: chunks that arrive one by one, after their delays, through
/// the whole pipeline, so a streaming screen is testable offline.
@Suite("Sample streams")
struct SampleStreamTests {
    enum Chat: TargetType {
        case completion, feed, plain, crlf
        var baseURL: URL { URL(string: "http://127.0.0.1:9")! }
        var path: String { "/chat" }
        var method: HTTPMethod { .post }
        var task: HTTPTask { .requestPlain }
        var headers: [String: String]? { nil }
        var validationType: ValidationType { .successCodes }
        var sampleData: Data { Data("whole\n".utf8) }
        var sampleStream: SampleStream? {
            switch self {
            case .completion: .events(data: ["Hel", "lo", "[DONE]"], every: 0.02)
            case .feed: .lines(["{\"n\":1}", "{\"n\":2}"], contentType: "application/x-ndjson")
            case .plain: nil
            case .crlf: .events(data: ["line one\r\nline two"])
            }
        }
    }

    /// A stubbed provider whose every target answers with `stream`.
    static func provider(answering stream: SampleStream) -> Provider<Chat> {
        Provider<Chat>(
            endpointClosure: { target in
                Provider.defaultEndpointMapping(for: target).replacing(sampleResponseClosure: {
                    .streamedResponse(200, stream)
                })
            }, stubClosure: Provider.immediatelyStub)
    }

    @Test("events arrive one by one, after their delays, through every hook")
    func events() async throws {
        let recorder = CallRecorder()
        let provider = Provider<Chat>(
            stubClosure: Provider.immediatelyStub, plugins: [RecordingPlugin("p", recorder: recorder)],
            interceptor: RecordingInterceptor(recorder: recorder))
        let start = Date()

        var data: [String] = []
        for try await event in provider.events(.completion, until: .data("[DONE]")) {
            data.append(event.data)
        }

        #expect(data == ["Hel", "lo"])
        #expect(Date().timeIntervalSince(start) >= 0.06)
        #expect(
            recorder.events.map(\.description) == [
                "p.prepare", "p.willSend#1", "adapt#1", "p.didReceive success(200)", "p.process success(200)",
                "p.didFinishStream completed",
            ])
    }

    @Test("the first chunk reaches the reader before the later ones are due")
    func incremental() async throws {
        let stream = SampleStream([.init(Data("first\n".utf8)), .init(Data("late\n".utf8), after: 30)])
        let provider = Self.provider(answering: stream)

        let arrived = Locked<[String]>([])
        let firstLine = CallRecorder()
        let task = Task {
            for try await line in try await provider.stream(.plain).lines {
                arrived.withLock { $0.append(line) }
                firstLine.record(.send)
            }
        }
        #expect(await firstLine.wait(for: .send, timeout: 10))
        #expect(arrived.value == ["first"])
        task.cancel()
        await #expect(throws: CourierError.self) { try await task.value }
    }

    @Test("request() on a sample stream waits for every chunk and returns them joined, with its headers")
    func wholeRequest() async throws {
        let provider = Provider<Chat>(stubClosure: Provider.immediatelyStub)
        let response = try await provider.request(.feed)
        #expect(String(decoding: response.data, as: UTF8.self) == "{\"n\":1}\n{\"n\":2}\n")
        #expect(response.headerFields["Content-Type"] == "application/x-ndjson")
    }

    @Test("cancelling the reader ends a sample stream's wait at once")
    func cancelled() async throws {
        let stream = SampleStream([.init(Data("a\n".utf8)), .init(Data("b\n".utf8), after: 600)])
        let provider = Self.provider(answering: stream)
        let firstLine = CallRecorder()
        let task = Task {
            var lines: [String] = []
            for try await line in try await provider.stream(.plain).lines {
                lines.append(line)
                firstLine.record(.send)
            }
            return lines
        }
        #expect(await firstLine.wait(for: .send, timeout: 5))
        task.cancel()
        await #expect(throws: CourierError.self) { try await task.value }
    }

    @Test("a target without a sample stream still streams its sample data as one chunk")
    func sampleData() async throws {
        let provider = Provider<Chat>(stubClosure: Provider.immediatelyStub)
        var lines: [String] = []
        for try await line in try await provider.stream(.plain).lines { lines.append(line) }
        #expect(lines == ["whole"])
    }

    @Test("events encode type, changed IDs and multi-line data as the parser reads them back")
    func eventEncoding() throws {
        let events = [
            ServerSentEvent(type: "delta", data: "one\ntwo", lastEventID: "7"),
            ServerSentEvent(data: "same id", lastEventID: "7"),
            ServerSentEvent(data: "", lastEventID: ""),
            ServerSentEvent(data: "\n\nblank lines\n", lastEventID: "8"),
        ]
        var parser = ServerSentEventParser()
        #expect(try parser.parse(SampleStream.events(events).body) == events)
        #expect(SampleStream.events(events).headerFields["Content-Type"] == "text/event-stream")
    }

    @Test(
        "CR, LF and CRLF in data arrive as the parser reads them from the network: line feeds",
        arguments: ["line one\r\nline two", "line one\rline two", "line one\nline two", "a\r\n\r\nb\r", "\r\n"])
    func lineBreaksInData(_ data: String) throws {
        // What a server writing these bytes in data fields sends, and what the parser reads of it.
        var network = ServerSentEventParser()
        let wire =
            data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
        let fromNetwork = try network.parse(Data(wire.utf8))

        var stub = ServerSentEventParser()
        let fromStub = try stub.parse(SampleStream.events(data: [data]).body)

        #expect(fromStub == fromNetwork)
        #expect(
            fromStub.first?.data
                == data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
    }

    @Test("a stubbed event source hands over text after a CRLF (it lost it before)")
    func stubbedEventSourceKeepsLines() async throws {
        let provider = Provider<Chat>(stubClosure: Provider.immediatelyStub)
        var data: [String] = []
        for try await event in provider.events(.crlf, reconnection: .never) { data.append(event.data) }
        #expect(data == ["line one\nline two"])
    }
}
