import Courier
import CourierAsyncHTTPClient
import CourierOpenAPI
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

extension SerializedSuite {
    /// OpenAPI calls through Courier on this engine (CourierOpenAPI's `CourierTransport` over
    /// `AsyncHTTPClientTransport`): bodies streamed both ways, a rejected status answered.
    @Suite("OpenAPI calls on AsyncHTTPClient")
    struct OpenAPIBridgeTests {
        private static let megabytes = 8

        @Test("A one-shot stream of unknown length goes up; a large answer comes down as read")
        func streamedBothWays() async throws {
            let server = try LoopbackServer { request in
                request.method == "PUT"
                    ? .text("\(request.body.count)")
                    : ServerReply(status: 200, body: Data(repeating: 1, count: Self.megabytes << 20))
            }
            let provider = Provider<OpenAPIOperation>(transport: AsyncHTTPClientTransport())
            let transport = CourierTransport(provider: provider)
            let (chunks, writer) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            for _ in 0..<(Self.megabytes * 16) { writer.yield(ArraySlice(repeating: 2, count: 64 << 10)) }
            writer.finish()

            let (stored, storedBody) = try await transport.send(
                HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/blob"),
                body: HTTPBody(chunks, length: .unknown, iterationBehavior: .single), baseURL: server.baseURL,
                operationID: "putBlob")
            let count = try await String(collecting: try #require(storedBody), upTo: 64)
            #expect(stored.status == .ok)
            #expect(count == "\(Self.megabytes << 20)")

            let (answer, body) = try await transport.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/blob"), body: nil,
                baseURL: server.baseURL, operationID: "getBlob")
            var received = 0
            var chunkCount = 0
            for try await chunk in try #require(body) {
                received += chunk.count
                chunkCount += 1
            }
            #expect(answer.status == .ok)
            #expect(received == Self.megabytes << 20)
            #expect(chunkCount > 1)
        }

        @Test("A status the validation rejects reaches the client as its answer, with its body")
        func rejectedStatus() async throws {
            let server = try LoopbackServer { _ in .json(#"{"title":"Not found"}"#, status: 404) }
            let transport = CourierTransport(provider: Provider(transport: AsyncHTTPClientTransport()))

            let (answer, body) = try await transport.send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/todos/9"), body: nil,
                baseURL: server.baseURL, operationID: "getTodo")

            #expect(answer.status == .notFound)
            #expect(try await String(collecting: try #require(body), upTo: 1024) == #"{"title":"Not found"}"#)
        }
    }
}
