import AsyncHTTPClient
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
    /// What the conformance suite does not cover: clients the caller owns, redirects a client must
    /// leave to Courier, and the pipeline's recorded sequences on this engine.
    @Suite("AsyncHTTPClientTransport")
    struct AsyncHTTPClientTransportTests {
        @Test("a client the caller owns serves several providers and is never shut down by them")
        func callerOwnedClient() async throws {
            let server = try LoopbackServer { request in ServerReply(body: Data(request.path.utf8)) }
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.configuration())
            do {
                let first = Provider<Echo>(transport: AsyncHTTPClientTransport(client: client))
                let second = Provider<Echo>(transport: AsyncHTTPClientTransport(client: client))
                let answers = try await [first.request(Echo(server, "/a")), second.request(Echo(server, "/b"))]
                #expect(answers.map { String(decoding: $0.data, as: UTF8.self) } == ["/a", "/b"])
            } catch {
                try await client.shutdown()
                throw error
            }
            // Shutting down works: the transports did not do it first.
            try await client.shutdown()
        }

        @Test("a client that follows redirects itself is refused, so Courier's redirect rules are never bypassed")
        func clientFollowingRedirects() async throws {
            let server = try LoopbackServer { request in
                request.path == "/from"
                    ? ServerReply(status: 302, headers: ["Location": "/to"]) : ServerReply(body: Data("to".utf8))
            }
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
            let error = await capture {
                try await Provider<Echo>(transport: AsyncHTTPClientTransport(client: client)).request(
                    Echo(server, "/from"))
            }
            try await client.shutdown()
            guard case .transport(let underlying, _)? = error else {
                Issue.record("expected .transport(clientFollowedRedirect), got \(String(describing: error))")
                return
            }
            #expect(underlying as? AsyncHTTPClientTransportError == .clientFollowedRedirect)
        }

        @Test("the default client leaves redirects to Courier: credentials do not follow to another origin")
        func redirectsFollowedByCourier() async throws {
            let other = try LoopbackServer { request in
                ServerReply(body: Data((request.header("Authorization") ?? "none").utf8))
            }
            let server = try LoopbackServer { _ in
                ServerReply(
                    status: 307, headers: ["Location": other.baseURL.appendingPathComponent("landed").absoluteString])
            }
            var target = Echo(server, "/start")
            target.headers = ["Authorization": "Bearer secret"]

            let response = try await Provider<Echo>(transport: AsyncHTTPClientTransport()).request(target)

            #expect(String(decoding: response.data, as: UTF8.self) == "none")
        }

        @Test("the client's proxy setting is passed through: the request for another origin reaches the proxy")
        func proxyPassedThrough() async throws {
            let proxy = try LoopbackServer { request in
                ServerReply(body: Data("\(request.header("Host") ?? "") \(request.path)".utf8))
            }
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.proxy = .server(host: "127.0.0.1", port: Int(proxy.port))
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.configuration(configuration))
            let origin = URL(string: "http://127.0.0.1:9")!
            var target = Echo(proxy, "/through-proxy")
            target.baseURL = origin

            let result = await Result(catching: {
                try await Provider<Echo>(transport: AsyncHTTPClientTransport(client: client)).request(target)
            })
            try await client.shutdown()

            let received = try result.get().mapString()
            // The origin (port 9, discard) would refuse the connection: the proxy answered.
            #expect(received == "127.0.0.1:9 /through-proxy")
        }

        @Test("a 503 with Retry-After is retried by RetryPolicy after the delay, recorded as on URLSession")
        func retryAfterMatchesURLSession() async throws {
            func run(_ transport: any Transport) async throws -> ([String], Double) {
                let calls = NIOLockedValueBox(0)
                let server = try LoopbackServer { _ in
                    let call = calls.withLockedValue { count in
                        count += 1
                        return count
                    }
                    return call == 1
                        ? ServerReply(status: 503, headers: ["Retry-After": "1"]) : ServerReply(body: Data("ok".utf8))
                }
                let recorder = CallRecorder()
                let provider = Provider<Echo>(
                    transport: RecordingTransport(transport, recorder: recorder),
                    plugins: [RecordingPlugin("p", recorder: recorder)],
                    interceptor: Interceptor(retriers: [RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)]))
                let start = Date()
                _ = try await provider.request(Echo(server, "/retry"))
                return (recorder.events.map(\.description), Date().timeIntervalSince(start))
            }

            let (onURLSession, _) = try await run(URLSessionTransport())
            let (onAsyncHTTPClient, waited) = try await run(AsyncHTTPClientTransport())

            #expect(onAsyncHTTPClient == onURLSession)
            #expect(onAsyncHTTPClient.filter { $0 == "send" }.count == 2)
            #expect(waited >= 1, "the retry came after \(waited) s, before the server's Retry-After")
        }

        @Test("plugins, interceptor and transport are called in the same order as on URLSession")
        func callOrderMatchesURLSession() async throws {
            let server = try LoopbackServer { _ in ServerReply(status: 503) }
            func sequence(_ transport: any Transport) async -> [String] {
                let recorder = CallRecorder()
                let provider = Provider<Echo>(
                    transport: RecordingTransport(transport, recorder: recorder),
                    plugins: [RecordingPlugin("p", recorder: recorder)],
                    interceptor: RecordingInterceptor(
                        recorder: recorder, retry: { _, context in context.attempt < 2 ? .retry : .doNotRetry }))
                _ = await capture { try await provider.request(Echo(server, "/order")) }
                return recorder.events.map(\.description)
            }

            let onURLSession = await sequence(URLSessionTransport())
            let onAsyncHTTPClient = await sequence(AsyncHTTPClientTransport())

            #expect(onAsyncHTTPClient == onURLSession)
            #expect(onAsyncHTTPClient.filter { $0 == "send" }.count == 2)
        }

        @Test("a body a plugin puts in httpBodyStream is sent, as URLSession sends it (it was dropped)")
        func pluginStreamBody() async throws {
            let body = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            let server = try LoopbackServer { _ in ServerReply(status: 201) }
            for transport: any Transport in [AsyncHTTPClientTransport(), URLSessionTransport()] {
                var target = Echo(server, "/plain")
                target.method = .post
                _ = try await Provider<Echo>(transport: transport, plugins: [StreamBodyPlugin(body: body)])
                    .request(target)
            }
            #expect(server.requests.map(\.body) == [body, body])
        }
    }
}

/// Puts a fresh stream of `body` in every request's `httpBodyStream`, as a signing plugin may.
private struct StreamBodyPlugin: PluginType {
    let body: Data

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        request.httpBodyStream = InputStream(data: body)
        return request
    }
}

/// A target for any path of a loopback server.
struct Echo: TargetType {
    var baseURL: URL
    var path: String
    var method: HTTPMethod = .get
    var task: HTTPTask = .requestPlain
    var headers: [String: String]?
    var validationType: ValidationType { .successCodes }

    init(_ server: LoopbackServer, _ path: String) {
        baseURL = server.baseURL
        self.path = path
    }
}

/// The `CourierError` an operation throws, or `nil`.
func capture(_ operation: () async throws -> some Any) async -> CourierError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error as? CourierError
    }
}
