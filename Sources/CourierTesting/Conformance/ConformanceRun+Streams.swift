import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The streamed response cases.
extension ConformanceRun {
    func performStreamCase() async throws {
        switch testCase {
        case .streamedHeadBeforeBody: try await headBeforeBody()
        case .streamedEarlyEnd: try await earlyEnd()
        default: throw fail("not a streamed response case")
        }
    }

    private func headBeforeBody() async throws {
        let body = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        let release = DispatchSemaphore(value: 0)
        let heldUntilReleased = Locked(false)
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n"
            return .raw([
                .send(Data(head.utf8) + body.prefix(1_024)),
                .run { heldUntilReleased.withLock { $0 = release.wait(timeout: .now() + 10) == .success } },
                .send(body.dropFirst(1_024)),
            ])
        }
        let streamed: StreamedTransportResponse
        do {
            streamed = try await transport.stream(TransportRequest(urlRequest: Self.request(server, "stream")))
        } catch {
            throw fail("stream threw \(error)")
        }
        release.signal()
        let received = try await streamed.body.collect(upTo: body.count)
        try expect(heldUntilReleased.value, "the head came back only once the whole body had arrived")
        try expect(streamed.statusCode == 200, "status \(streamed.statusCode)")
        try expect(received == body, "\(received.count) bytes arrived of \(body.count), or different ones")
    }

    private func earlyEnd() async throws {
        let closed = CallRecorder()
        let server = try LoopbackServer { _ in
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(64 << 20)\r\n\r\n"
            return .raw([
                .send(Data(head.utf8) + Data(repeating: 1, count: 64 << 10)), .stall, .run { closed.record(.send) },
            ])
        }
        let streamed = try await transport.stream(TransportRequest(urlRequest: Self.request(server, "endless")))
        for try await chunk in streamed.body where !chunk.isEmpty {
            break
        }
        try expect(await closed.wait(for: .send, timeout: 5), "the connection stayed open after reading stopped")
    }
}
