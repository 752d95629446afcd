import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of a streamed response: `didFinishStream` once with what was read, however it ends
/// (the body's end, the reader's break, a broken transfer, a terminator), the logger's summary,
/// and progress as the reader takes chunks.
@Suite("Stream lifecycle")
struct StreamLifecycleTests {
    typealias StreamTarget = ProviderStreamingTests.StreamTarget
    typealias Events = EventSourceTests.Events

    /// Keeps every summary it is given.
    struct SummaryPlugin: PluginType {
        let summaries = Locked<[StreamSummary]>([])

        func didFinishStream(_ summary: StreamSummary, target: any TargetType) {
            summaries.withLock { $0.append(summary) }
        }
    }

    @Test("a body read to the end: didFinishStream once, after process, with the bytes and events read")
    func completed() async throws {
        let server = try LoopbackServer { _ in EventSourceTests.eventStream("id: 1\ndata: a\n\ndata: b\n\n") }
        let recorder = CallRecorder()
        let summaries = SummaryPlugin()
        let provider = Provider<Events>(plugins: [RecordingPlugin("p", recorder: recorder), summaries])

        let streamed = try await provider.stream(Events(baseURL: server.baseURL))
        var data: [String] = []
        for try await event in streamed.events { data.append(event.data) }

        #expect(data == ["a", "b"])
        #expect(
            recorder.events.map(\.description) == [
                "p.prepare", "p.willSend#1", "p.didReceive success(200)", "p.process success(200)",
                "p.didFinishStream completed",
            ])
        let summary = try #require(summaries.summaries.value.first)
        #expect(summaries.summaries.value.count == 1)
        #expect(summary.bytes == Int64("id: 1\ndata: a\n\ndata: b\n\n".utf8.count))
        #expect(summary.events == 2)
        #expect(summary.response.statusCode == 200)
        #expect(summary.duration >= 0)
    }

    @Test("breaking out of the loop reports the stream stopped, and closes the connection")
    func stopped() async throws {
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\nline\nmore\n".utf8)), .stall,
                .run { closed.record(.send) },
            ])
        }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(plugins: [RecordingPlugin("p", recorder: recorder)])
        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/endless"))

        for try await _ in streamed.lines { break }

        #expect(await recorder.wait(for: .didFinishStream("p", .stopped), timeout: 5))
        #expect(await closed.wait(for: .send, timeout: 5))
        #expect(recorder.events.filter { if case .didFinishStream = $0 { true } else { false } }.count == 1)
    }

    @Test("a response dropped unread reports the stream stopped")
    func droppedUnread() async throws {
        let server = try LoopbackServer { _ in ServerReply(body: Data("unread".utf8)) }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(plugins: [RecordingPlugin("p", recorder: recorder)])

        _ = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/s"))

        #expect(await recorder.wait(for: .didFinishStream("p", .stopped), timeout: 5))
    }

    @Test("a transfer that breaks after the head ends the loop with .transport and reports it failed")
    func failed() async throws {
        let server = try LoopbackServer { _ in
            .raw([.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\npartial\n".utf8))])
        }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(plugins: [RecordingPlugin("p", recorder: recorder)])
        let streamed = try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/broken"))

        await #expect(throws: CourierError.self) {
            for try await _ in streamed.body {}
        }
        #expect(
            recorder.events.map(\.description) == [
                "p.prepare", "p.willSend#1", "p.didReceive success(200)", "p.process success(200)",
                "p.didFinishStream failed(transport)",
            ])
    }

    @Test("cancelling the reader's task mid-stream ends it with .cancelled, reports it stopped, closes the connection")
    func cancelledMidStream() async throws {
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            .raw([
                .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\nfirst\n".utf8)), .stall,
                .run { closed.record(.send) },
            ])
        }
        let recorder = CallRecorder()
        let provider = Provider<StreamTarget>(plugins: [RecordingPlugin("p", recorder: recorder)])
        let firstLine = CallRecorder()
        let reader = Task {
            for try await _ in try await provider.stream(StreamTarget(baseURL: server.baseURL, path: "/s")).lines {
                firstLine.record(.send)
            }
        }
        #expect(await firstLine.wait(for: .send, timeout: 5))

        reader.cancel()

        let error = await #expect(throws: CourierError.self) { try await reader.value }
        #expect(error?.stage == .cancellation)
        #expect(await closed.wait(for: .send, timeout: 5))
        #expect(recorder.events.last == .didFinishStream("p", .stopped))
    }

    @Test("progress follows the reader against Content-Length; the last report carries the head")
    func progress() async throws {
        let body = Data(repeating: 7, count: 300_000)
        let server = try LoopbackServer { _ in ServerReply(body: body) }
        let reports = Locked<[ProgressResponse]>([])
        let streamed = try await Provider<StreamTarget>().stream(
            StreamTarget(baseURL: server.baseURL, path: "/p"),
            progress: { report in reports.withLock { $0.append(report) } })

        var read: Int64 = 0
        for try await chunk in streamed.body {
            read += Int64(chunk.count)
            #expect(reports.value.last?.completedBytes == read)
        }

        let all = reports.value
        #expect(all.count >= 2)
        #expect(all.dropLast().allSatisfy { $0.expectedBytes == 300_000 && !$0.isCompleted })
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.completedBytes <= $1.completedBytes })
        #expect(all.last?.isCompleted == true)
        #expect(all.last?.progress == 1)
        #expect(all.last?.completedBytes == 300_000)
    }

    @Test("the logger shows the head, then a summary without the content")
    func loggerSummary() async throws {
        let server = try LoopbackServer { _ in EventSourceTests.eventStream("data: secret-token-value\n\n") }
        let entries = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, lines in entries.withLock { $0.append(contentsOf: lines) } }))
        let provider = Provider<Events>(plugins: [logger])

        for try await _ in provider.events(Events(baseURL: server.baseURL), reconnection: .never) {}

        let log = entries.value
        #expect(log.contains { $0.contains("Response #") && $0.contains("200 GET") })
        let summary = try #require(log.last)
        #expect(summary.contains("Stream #"))
        #expect(summary.contains("completed, 26 bytes, 1 event in "))
        #expect(!log.joined().contains("secret-token-value"))
    }
}

extension TemporaryFilesSuite {
    /// A reader slower than the server, at the provider: the backlog leaves memory.
    @Suite("Stream memory")
    struct StreamMemoryTests {
        @Test("a 32 MiB stream read slowly through the provider holds at most 8 MiB in memory")
        func slowReader() async throws {
            let block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
            let blocks = 32
            let sent = CallRecorder()
            let server = try LoopbackServer { _ in
                let head = "HTTP/1.1 200 OK\r\nContent-Length: \(blocks * block.count)\r\n\r\n"
                return .raw([.send(Data(head.utf8)), .sendRepeated(block, count: blocks), .run { sent.record(.send) }])
            }
            let streamed = try await Provider<ProviderStreamingTests.StreamTarget>().stream(
                ProviderStreamingTests.StreamTarget(baseURL: server.baseURL, path: "/large"))

            var received = 0
            var matches = true
            for try await chunk in streamed.body {
                if received == 0 {
                    // The reader holds its first chunk until the server has sent everything.
                    #expect(await sent.wait(for: .send, timeout: 30))
                }
                for (offset, byte) in chunk.enumerated() where offset % 4_099 == 0 {
                    matches = matches && byte == block[(received + offset) % block.count]
                }
                received += chunk.count
            }

            #expect(received == blocks * block.count)
            #expect(matches)
            #expect(streamed.body.peakMemoryBytes <= 8 << 20)
        }
    }
}
