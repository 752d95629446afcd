import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bodies read from streams, through the whole pipeline: framing, progress, and the rule that a
/// stream read once is never sent again.
@Suite("Upload streams")
struct UploadStreamTests {
    private static let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    private func target(_ server: LoopbackServer, _ stream: UploadStream, method: HTTPMethod = .put) -> TransferTarget {
        TransferTarget(baseURL: server.baseURL, path: "/stream", method: method, task: .uploadStream(stream))
    }

    @Test("a stream of known length arrives whole with its Content-Length, and progress knows the total")
    func knownLength() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 201) }
        let stream = UploadStream(length: UInt64(Self.body.count)) { InputStream(data: Self.body) }
        let log = ProgressLog()
        for try await report in Provider<TransferTarget>().requestWithProgress(target(server, stream)) {
            log.add(report)
        }
        let received = try #require(server.requests.first)
        #expect(received.body == Self.body)
        #expect(received.header("Content-Length") == "\(Self.body.count)")
        #expect(log.isMonotonicEndingAtOne)
        #expect(log.reports.dropLast().allSatisfy { $0.expectedBytes == Int64(Self.body.count) })
    }

    @Test("a stream that can be read once is not retried: the error says why, and one request was sent")
    func notReplayable() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        let opened = Locked(0)
        let stream = UploadStream(length: UInt64(Self.body.count), replayable: false) {
            opened.withLock { $0 += 1 }
            return InputStream(data: Self.body)
        }
        let provider = Provider<TransferTarget>(interceptor: .retryPolicy(exponentialBackoffScale: 0.01))

        let error = await capture { try await provider.request(target(server, stream)) }

        guard case .underlying(let underlying, let response)? = error else {
            Issue.record("expected .underlying(streamNotReplayable), got \(String(describing: error))")
            return
        }
        #expect(underlying as? TransferError == .streamNotReplayable)
        #expect(response?.statusCode == 503)
        #expect(server.requests.count == 1)
        #expect(opened.value == 1)
    }

    @Test("a replayable stream is sent again, whole, on a retry")
    func replayable() async throws {
        let attempts = Locked(0)
        let server = try LoopbackServer { _ in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            return attempt == 1 ? ServerReply(status: 503) : ServerReply(status: 200)
        }
        let stream = UploadStream(length: nil) { InputStream(data: Self.body) }
        let provider = Provider<TransferTarget>(interceptor: .retryPolicy(exponentialBackoffScale: 0.01))

        let response = try await provider.request(target(server, stream))

        #expect(response.statusCode == 200)
        #expect(server.requests.map(\.body) == [Self.body, Self.body])
        #expect(server.requests.allSatisfy { $0.header("Transfer-Encoding")?.lowercased() == "chunked" })
    }

    @Test("a GET cannot carry a stream: refused before anything is sent")
    func getWithStream() async throws {
        let server = try LoopbackServer { _ in ServerReply() }
        let stream = UploadStream { InputStream(data: Self.body) }
        let error = await capture { try await Provider<TransferTarget>().request(target(server, stream, method: .get)) }
        #expect(error?.stage == .building)
        #expect(server.requests.isEmpty)
    }
    @Test("a body a plugin puts in httpBodyStream arrives whole, chunked (Courier owns the framing)")
    func pluginStream() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 201) }
        let provider = Provider<TransferTarget>(plugins: [StreamingBodyPlugin(body: Self.body)])

        _ = try await provider.request(TransferTarget(baseURL: server.baseURL, path: "/plain", task: .requestPlain))

        let received = try #require(server.requests.first)
        #expect(received.body == Self.body)
        #expect(received.header("Content-Length") == nil)
        #expect(received.header("Transfer-Encoding")?.lowercased() == "chunked")
    }

    @Test("a plugin's httpBodyStream, read once, is not sent again on a retry: the error says why")
    func pluginStreamNotResent() async throws {
        let server = try LoopbackServer { _ in ServerReply(status: 503) }
        let provider = Provider<TransferTarget>(
            plugins: [StreamingBodyPlugin(body: Self.body)], interceptor: .retryPolicy(exponentialBackoffScale: 0.01))

        let error = await capture {
            try await provider.request(
                TransferTarget(baseURL: server.baseURL, path: "/plain", method: .put, task: .requestPlain))
        }

        guard case .underlying(let underlying, let response)? = error else {
            Issue.record("expected .underlying(streamNotReplayable), got \(String(describing: error))")
            return
        }
        #expect(underlying as? TransferError == .streamNotReplayable)
        #expect(response?.statusCode == 503)
        #expect(server.requests.map(\.body) == [Self.body])
    }
}

/// Puts one stream of `body` in every request's `httpBodyStream`, with a `Content-Length` that
/// Courier removes (it owns the framing).
private struct StreamingBodyPlugin: PluginType {
    let stream: InputStreamBox
    let length: Int

    init(body: Data) {
        stream = InputStreamBox(InputStream(data: body))
        length = body.count
    }

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        request.httpBodyStream = stream.stream
        request.setValue("\(length)", forHTTPHeaderField: "Content-Length")
        return request
    }
}

// @unchecked Sendable: the stream is only handed to requests; the engine that sends one reads it.
private final class InputStreamBox: @unchecked Sendable {
    let stream: InputStream
    init(_ stream: InputStream) { self.stream = stream }
}
