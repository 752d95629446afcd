import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("TransportBody")
struct TransportBodyTests {
    struct Broken: Error, Equatable {}

    /// `count` chunks of `size` bytes, each with its own content.
    private func chunks(_ count: Int, size: Int) -> [Data] {
        (0..<count).map { index in Data((0..<size).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }) }
    }

    @Test("chunks arrive whole and in order across memory and the overflow file, with a slow reader")
    func orderAcrossMemoryAndFile() async throws {
        let (body, writer) = TransportBody.makeStream(memoryLimit: 4_096)
        let sent = chunks(2_000, size: 1_000)
        let producer = Task {
            for chunk in sent { writer.write(chunk) }
            writer.finish()
        }
        var received = Data()
        var reads = 0
        for try await chunk in body {
            received.append(chunk)
            reads += 1
            if reads % 100 == 0 { await Task.yield() }
        }
        await producer.value
        #expect(received == sent.reduce(Data(), +))
    }

    @Test("16 MiB written before any read come back byte for byte, through a 256 KiB memory limit")
    func largeBacklog() async throws {
        let (body, writer) = TransportBody.makeStream(memoryLimit: 256 << 10)
        let sent = (0..<256).map { Data(repeating: UInt8($0 % 251), count: 64 << 10) }
        for chunk in sent { writer.write(chunk) }
        writer.finish()
        var received = Data()
        for try await chunk in body { received.append(chunk) }
        #expect(received.count == 16 << 20)
        #expect(received == sent.reduce(into: Data(capacity: 16 << 20)) { $0.append($1) })
    }

    @Test("ending the iteration early tells the writer once; later writes are ignored")
    func earlyEnd() async throws {
        let (body, writer) = TransportBody.makeStream()
        let terminations = Locked(0)
        writer.onTermination = { terminations.withLock { $0 += 1 } }
        writer.write(Data("first".utf8))
        writer.write(Data("second".utf8))
        for try await chunk in body {
            #expect(chunk == Data("first".utf8))
            break
        }
        #expect(terminations.value == 1)
        #expect(writer.isTerminated)
        writer.write(Data("ignored".utf8))
        writer.finish()
        #expect(terminations.value == 1)
    }

    @Test("a body dropped unread tells the writer; one read to the end does not")
    func dropped() async throws {
        let terminations = Locked(0)
        do {
            let (body, writer) = TransportBody.makeStream()
            writer.onTermination = { terminations.withLock { $0 += 1 } }
            _ = body
        }
        #expect(terminations.value == 1)
        do {
            let (body, writer) = TransportBody.makeStream()
            writer.onTermination = { terminations.withLock { $0 += 1 } }
            writer.write(Data("all".utf8))
            writer.finish()
            #expect(try await body.collect(upTo: 10) == Data("all".utf8))
        }
        #expect(terminations.value == 1)
    }

    @Test("cancelling a waiting reader ends its read with CancellationError and tells the writer")
    func cancelledReader() async throws {
        let (body, writer) = TransportBody.makeStream()
        let terminated = CallRecorder()
        writer.onTermination = { terminated.record(.send) }
        let reader = Task { try await body.collect(upTo: 1 << 20) }
        reader.cancel()
        await #expect(throws: CancellationError.self) { try await reader.value }
        #expect(await terminated.wait(for: .send))
    }

    @Test("a failure reaches the reader after the chunks written before it")
    func failureAfterChunks() async throws {
        let (body, writer) = TransportBody.makeStream()
        writer.write(Data("partial".utf8))
        writer.fail(Broken())
        var iterator = body.makeAsyncIterator()
        #expect(try await iterator.next() == Data("partial".utf8))
        await #expect(throws: Broken.self) { _ = try await iterator.next() }
    }

    @Test("collect(upTo:) refuses a body over its limit")
    func collectLimit() async throws {
        let body = TransportBody(Data(repeating: 1, count: 100))
        await #expect(throws: TransportBodyError.tooLarge(limit: 99)) { _ = try await body.collect(upTo: 99) }
        #expect(try await TransportBody(Data()).collect(upTo: 0).isEmpty)
    }

    @Test("a transport that only returns whole bodies streams them as one chunk")
    func defaultBridge() async throws {
        let transport = ScriptedTransport()
        transport.enqueue([.status(201, body: Data("whole".utf8))], for: SampleAPI.user("a"))
        let streamed = try await Provider<SampleAPI>(transport: transport).stream(.user("a"))
        #expect(streamed.statusCode == 201)
        var received = Data()
        for try await chunk in streamed.body { received.append(chunk) }
        #expect(received == Data("whole".utf8))
    }
}
