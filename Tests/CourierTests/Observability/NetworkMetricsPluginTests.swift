import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("NetworkMetricsPlugin")
struct NetworkMetricsPluginTests {
    @Test("per-attempt and total durations, status and bytes, once per request")
    func metrics() async throws {
        let collected = Locked<[RequestMetrics]>([])
        let transport = ScriptedTransport()
        transport.enqueue(
            [.delayed(0.02, .status(503, body: Data("busy".utf8))), .delayed(0.02, .json(201, #"{"id":1}"#))],
            for: SampleAPI.create(NewItem(name: "pen", count: 1)))
        let provider = Provider<SampleAPI>(
            transport: transport,
            plugins: [NetworkMetricsPlugin { metrics, _, _ in collected.withLock { $0.append(metrics) } }],
            interceptor: Retrier { request, _, context in
                context.attempt == 1 && request.httpMethod == "POST" ? .retry : .doNotRetry
            })
        let response = try await provider.request(.create(NewItem(name: "pen", count: 1)))

        let all = collected.value
        #expect(all.count == 1)
        let metrics = try #require(all.first)
        let bodySize = try #require(response.request?.httpBody?.count)
        #expect(metrics.attempts.map(\.number) == [1, 2])
        #expect(metrics.attempts.map(\.statusCode) == [503, 201])
        #expect(metrics.attempts.map(\.failure) == [.validation, nil])
        #expect(metrics.attempts.map(\.bytesReceived) == [4, 8])
        #expect(metrics.attempts.map(\.bytesSent) == [bodySize, bodySize])
        #expect(metrics.attempts.allSatisfy { $0.duration >= 0.02 })
        #expect(metrics.duration >= metrics.attempts.map(\.duration).reduce(0, +))
    }

    @Test("a file upload's attempts report the file's size as sent")
    func uploadBytesSent() async throws {
        let folder = try Scratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (file, _) = try Scratch.file(in: folder, name: "up.bin", size: 12_345)
        let collected = Locked<[RequestMetrics]>([])
        struct Upload: TargetType {
            let file: URL
            var baseURL: URL { URL(string: "https://upload.invalid")! }
            var path: String { "/files" }
            var method: HTTPMethod { .post }
            var task: HTTPTask { .uploadFile(file) }
            var headers: [String: String]? { nil }
        }
        let provider = Provider<Upload>(
            transport: ScriptedTransport(fallback: .status(201)),
            plugins: [NetworkMetricsPlugin { metrics, _, _ in collected.withLock { $0.append(metrics) } }])
        _ = try await provider.request(Upload(file: file))
        #expect(collected.value.flatMap(\.attempts).map(\.bytesSent) == [12_345])
    }

    @Test("a request that fails before its first attempt has no attempts")
    func noAttempts() async {
        let collected = Locked<[RequestMetrics]>([])
        let provider = Provider<SampleAPI>(
            requestClosure: { _ in throw URLError(.badURL) }, transport: ScriptedTransport(),
            plugins: [NetworkMetricsPlugin { metrics, _, _ in collected.withLock { $0.append(metrics) } }])
        _ = await capture { try await provider.request(.user("a")) }
        #expect(collected.value.map(\.attempts.count) == [0])
    }
}
