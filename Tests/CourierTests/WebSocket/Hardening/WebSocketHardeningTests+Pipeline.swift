import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An engine that accepts every socket and keeps what each handshake looked like on arrival.
struct ReviewHandshakeEngine: Transport {
    let seen = Locked<[String]>([])
    let closes = Locked<[Int]>([])

    var capabilities: TransportCapabilities { [.webSocket] }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let url = request.urlRequest.url!
        var body = "none"
        if case .stream = request.body { body = "stream" }
        if let data = request.urlRequest.httpBody { body = "\(data.count) bytes" }
        seen.withLock { $0.append("\(request.urlRequest.httpMethod ?? "GET") \(url.absoluteString) body=\(body)") }
        request.webSocket?.accept(ReviewSpyConnection(WebSocketScript.echo.makeConnection(), number: 1, closes: closes))
        return TransportResponse(statusCode: 101, headerFields: ["Upgrade": "websocket"], url: url, data: Data())
    }
}

/// A plugin that rewrites the handshake in `prepare`: a method, a body and a `wss:` URL.
struct ReviewRewriter: PluginType {
    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        request.httpMethod = "POST"
        request.httpBody = Data("secret-form=1".utf8)
        request.url = URL(string: "wss://elsewhere.example/socket")
        return request
    }
}

/// A plugin whose `process` turns every success into a failure.
struct ReviewFailingProcess: PluginType {
    func process(_ result: Result<Response, CourierError>, target: any TargetType) async -> Result<
        Response, CourierError
    > {
        guard case .success(let response) = result else { return result }
        return .failure(.statusCode(response))
    }
}

@Suite("WebSocket hardening: WebSocket pipeline probes", .serialized)
struct WebSocketReviewPipelineProbes {
    @Test("a handshake a plugin's prepare makes POST with a body and a wss: URL is refused, or mapped, not sent")
    func handshakeCheckedBeforePrepare() async throws {
        let engine = ReviewHandshakeEngine()
        let provider = Provider<SocketTarget>(transport: engine, plugins: [ReviewRewriter()])
        let outcome: String
        do {
            let socket = try await provider.webSocket(SocketTarget())
            outcome = "opened"
            await socket.close()
        } catch {
            outcome = "refused: \(error)"
        }
        print("PROBE prepare rewrite: \(outcome); the engine got \(engine.seen.value)")
        #expect(engine.seen.value.isEmpty, "the engine was handed a non-GET handshake with a body and a ws URL")
    }

    @Test("a plugin's process that fails a 101: the socket's connection is closed (contract holds)")
    func processFailureClosesConnection() async throws {
        let engine = ReviewHandshakeEngine()
        let provider = Provider<SocketTarget>(transport: engine, plugins: [ReviewFailingProcess()])
        await #expect(throws: CourierError.self) { _ = try await provider.webSocket(SocketTarget()) }
        print("PROBE process failure: closes \(engine.closes.value)")
        #expect(engine.closes.value == [1])
    }

    @Test("with trackInflights two sockets to one target never share a connection")
    func inflightSockets() async throws {
        let engine = ReviewHandshakeEngine()
        let provider = Provider<SocketTarget>(transport: engine, trackInflights: true)
        async let first = provider.webSocket(SocketTarget())
        async let second = provider.webSocket(SocketTarget())
        let (a, b) = try await (first, second)
        #expect(a !== b)
        #expect(engine.seen.value.count == 2)
        await a.close()
        await b.close()
    }
}
