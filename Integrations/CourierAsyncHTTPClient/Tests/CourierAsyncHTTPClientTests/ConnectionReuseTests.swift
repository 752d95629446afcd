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
    /// Pooled connections the server closed, and a cancelled GET through the cache: the rules
    /// URLSessionTransport keeps, on AsyncHTTPClient.
    @Suite("Connection reuse and cancellation")
    struct ConnectionReuseTests {
        /// Keeps the attempts' metrics of every request.
        final class Attempts: PluginType, Sendable {
            private let seen = NIOLockedValueBox<[AttemptMetrics]>([])
            var all: [AttemptMetrics] { seen.withLockedValue { $0 } }
            func didReceive(_ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics) {
                seen.withLockedValue { $0.append(contentsOf: metrics.attempts) }
            }
        }

        /// A server that, the first time `/p` arrives, closes the kept-alive connection it came on
        /// without answering; later it answers.
        static func closingOnce() throws -> LoopbackServer {
            let closed = NIOLockedValueBox(false)
            return try LoopbackServer { request in
                guard request.path == "/p" else { return ServerReply(body: Data("warm".utf8)) }
                let first = closed.withLockedValue { closed in
                    defer { closed = true }
                    return !closed
                }
                return first ? .closeConnection : ServerReply(body: Data("answered".utf8))
            }
        }

        @Test("a GET on a pooled connection the server closed is sent once more and answered; metrics say so")
        func getResentOnce() async throws {
            let server = try Self.closingOnce()
            defer { server.stop() }
            let attempts = Attempts()
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport(), plugins: [attempts])
            _ = try await provider.request(Echo(server, "/warm"))

            let response = try await provider.request(Echo(server, "/p"))

            #expect(String(decoding: response.data, as: UTF8.self) == "answered")
            #expect(server.requests.filter { $0.path == "/p" }.count == 2)
            #expect(attempts.all.last?.transportResends == 1)
            #expect(attempts.all.count == 2)  // one attempt each: the engine resent, not the retrier
        }

        @Test("the HTTP version of the answer is in the attempt's metrics, whole or streamed")
        func protocolVersion() async throws {
            let server = try LoopbackServer { _ in ServerReply(body: Data("v".utf8)) }
            defer { server.stop() }
            let attempts = Attempts()
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport(), plugins: [attempts])

            _ = try await provider.request(Echo(server, "/whole"))
            for try await _ in try await provider.stream(Echo(server, "/streamed")).body {}

            #expect(attempts.all.map(\.protocolVersion) == ["1.1", "1.1"])
        }

        @Test("a POST on such a connection is never sent again: connectionLost, and the server has it once")
        func postNotResent() async throws {
            let server = try Self.closingOnce()
            defer { server.stop() }
            let provider = Provider<Echo>(transport: AsyncHTTPClientTransport())
            _ = try await provider.request(Echo(server, "/warm"))
            var post = Echo(server, "/p")
            post.method = .post
            post.task = .requestData(Data("pay".utf8))

            let error = await capture { try await provider.request(post) }

            guard case .transport(let failure as TransportFailure, _)? = error else {
                Issue.record("expected connectionLost, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .connectionLost)
            #expect(server.requests.filter { $0.path == "/p" }.count == 1)
        }

        @Test("cancelling a GET through the cache ends its exchange: the concurrency place is free at once")
        func cancelledCacheFill() async throws {
            let arrived = NIOLockedValueBox(0)
            let release = DispatchSemaphore(value: 0)
            let server = try LoopbackServer { request in
                if request.path == "/slow" {
                    arrived.withLockedValue { $0 += 1 }
                    _ = release.wait(timeout: .now() + 10)
                }
                return ServerReply(headers: ["Cache-Control": "max-age=60"], body: Data("ok".utf8))
            }
            defer {
                release.signal()
                server.stop()
            }
            let provider = Provider<Echo>(
                transport: AsyncHTTPClientTransport(),
                options: ProviderOptions(
                    cache: HTTPCache(), resilience: ResiliencePolicy(concurrencyLimit: ConcurrencyLimit(maximum: 1))))
            let call = Task { try await provider.request(Echo(server, "/slow")) }
            let deadline = Date().addingTimeInterval(10)
            while arrived.withLockedValue({ $0 }) == 0, Date() < deadline {
                try await Task.sleep(nanoseconds: 1_000_000)
            }
            call.cancel()
            let outcome = await call.result
            guard case .failure(let error) = outcome, case .cancelled? = error as? CourierError else {
                Issue.record("expected a cancellation, got \(outcome)")
                return
            }

            let next = try await provider.request(Echo(server, "/fast"))
            #expect(next.statusCode == 200)
        }
    }
}
