import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import InMemoryTracing
import Testing
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerializedSuite {
    /// One trace context per request: AsyncHTTPClient's own tracing is off in the configuration
    /// Courier makes, and a client that keeps it is refused a request that already carries one.
    @Suite("AsyncHTTPClient's own tracing")
    struct TracingTests {
        struct Echo: TargetType {
            var baseURL: URL
            var path: String { "/echo" }
            var method: Courier.HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var validationType: ValidationType { .successCodes }
        }

        /// Injects an in-memory trace context, as Courier's TracingPlugin does with its tracer.
        static let injecting = Adapter { request, _ in
            var request = request
            request.setValue("trace-1", forHTTPHeaderField: "in-memory-trace-id")
            request.setValue("span-1", forHTTPHeaderField: "in-memory-span-id")
            return request
        }

        @Test("Courier's configuration and the shared client have no tracer of their own")
        func configurationTracesNothing() {
            var base = HTTPClient.Configuration()
            base.tracing.tracer = InMemoryTracer()
            #expect(AsyncHTTPClientTransport.configuration(base).tracing.tracer == nil)
            #expect(AsyncHTTPClientTransport.sharedClient.tracer == nil)
        }

        @Test("a client with a tracer is refused a request that carries a trace context; one without sends it once")
        func duplicateRefused() async throws {
            let server = try LoopbackServer { _ in ServerReply(status: 200) }
            var traced = HTTPClient.Configuration()
            traced.redirectConfiguration = .disallow
            traced.tracing.tracer = InMemoryTracer()
            let tracing = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: traced)
            let plain = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.configuration())

            let refused = await capture {
                try await Provider<Echo>(
                    transport: AsyncHTTPClientTransport(client: tracing), interceptor: Self.injecting
                )
                .request(Echo(baseURL: server.baseURL))
            }
            let sent = await capture {
                try await Provider<Echo>(
                    transport: AsyncHTTPClientTransport(client: plain), interceptor: Self.injecting
                )
                .request(Echo(baseURL: server.baseURL))
            }
            try await tracing.shutdown()
            try await plain.shutdown()

            #expect(refused?.underlyingError as? AsyncHTTPClientTransportError == .clientTracesRequests)
            let error = refused?.underlyingError as? AsyncHTTPClientTransportError
            #expect(error?.description.contains("tracing.tracer = nil") == true)
            #expect(sent == nil)
            // Only the request that was not refused reached the server, with one trace context.
            #expect(server.requests.count == 1)
            #expect(server.requests.first?.headers.filter { $0.name.lowercased() == "in-memory-trace-id" }.count == 1)
        }
    }
}

extension SerializedSuite {
    /// A target that repeats a header name: AsyncHTTPClient sends each field line, in order.
    @Suite("Repeated header fields on AsyncHTTPClient")
    struct RepeatedHeaderFieldsTests {
        struct Tagged: TargetType {
            var baseURL: URL
            var path: String { "/tags" }
            var method: Courier.HTTPMethod { .get }
            var task: HTTPTask { .requestPlain }
            var headers: [String: String]? { nil }
            var headerFields: HeaderFields? {
                HeaderFields([.init(name: "X-Tag", value: "red, dark"), .init(name: "X-Tag", value: "blue")])
            }
        }

        @Test("each field line reaches the server, in order, never joined")
        func sentApart() async throws {
            let server = try LoopbackServer { _ in ServerReply() }
            _ = try await Provider<Tagged>(transport: AsyncHTTPClientTransport()).request(
                Tagged(baseURL: server.baseURL))
            let lines = server.requests.first?.headers.filter { $0.name.lowercased() == "x-tag" }.map(\.value)
            #expect(lines == ["red, dark", "blue"])
        }
    }
}
