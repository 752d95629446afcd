import CoreMetrics
import Courier
import CourierObservability
import CourierTesting
import Foundation
import InMemoryLogging
import Logging
import MetricsTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A socket's messages, reconnections and close, seen by the observability plugins: counted and
/// logged by kind and size, never by content.
@Suite("WebSocket observation")
struct WebSocketObservationTests {
    /// Opens a stubbed socket of ShopAPI (its URL carries secrets), sends a text and a binary
    /// message holding a secret, reads both echoes, and lets the peer close with 1001.
    private func session(_ plugins: [any PluginType]) async throws {
        let provider = Provider<ShopAPI>(stubClosure: Provider.immediatelyStub, plugins: plugins)
        let socket = try await provider.webSocket(
            ShopAPI(baseURL: URL(string: "wss://shop.example")!, call: .items(page: 1)))
        try await socket.send(.text(#"{"password":"\#(ShopAPI.secret)"}"#))
        try await socket.send(.binary(Data(ShopAPI.secret.utf8)))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        _ = try await messages.next()
        await socket.close(code: .goingAway)
    }

    @Test("counters for messages and bytes each way by opcode, the close by code and side")
    func metrics() async throws {
        let metrics = TestMetrics()
        try await session([MetricsPlugin(factory: metrics)])
        let text = [
            ("courier.target", "ShopAPI"), ("courier.websocket.direction", "sent"), ("websocket.opcode", "text"),
        ]
        #expect(try metrics.expectCounter("courier.websocket.messages", text).totalValue == 1)
        let size = Int64(#"{"password":"\#(ShopAPI.secret)"}"#.utf8.count)
        #expect(try metrics.expectCounter("courier.websocket.bytes", text).totalValue == size)
        #expect(metrics.counterTotal(label: "courier.websocket.messages") == 4)
        let closed = [
            ("courier.target", "ShopAPI"), ("websocket.close.code", "1001"), ("courier.websocket.closed_by", "client"),
        ]
        #expect(try metrics.expectCounter("courier.websocket.closes", closed).totalValue == 1)
        // The handshake is an HTTP client request, measured as one.
        #expect(metrics.counterTotal(label: "courier.client.requests") == 1)
    }

    @Test("log entries with opcode, size and close code, and no secret")
    func logs() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "shop") { _ in handler }
        logger.logLevel = .trace
        try await session([LoggingPlugin(logger: logger)])
        let socketEntries = handler.entries.filter { $0.message.description.hasPrefix("websocket") }
        #expect(
            socketEntries.map(\.message.description) == [
                "websocket message sent", "websocket message sent", "websocket message received",
                "websocket message received", "websocket closed",
            ])
        #expect(
            socketEntries.first?.metadata["websocket.message.size"]
                == "\(#"{"password":"\#(ShopAPI.secret)"}"#.utf8.count)")
        #expect(socketEntries.last?.metadata["websocket.close.code"] == "1001")
        let everything = handler.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        for secret in [ShopAPI.secret, ShopAPI.nestedSecret] {
            for form in [
                secret, Data(secret.utf8).base64EncodedString(),
                secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret,
            ] {
                #expect(!everything.contains(form))
            }
        }
    }
}
