import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A scripted connection whose peer "breaks the protocol" when it sends the text `VIOLATION`:
/// `receive` throws ``WebSocketError/protocolViolation(_:)`` as an engine would.
final class ReviewViolatingConnection: WebSocketConnection {
    let base: any WebSocketConnection
    init(_ base: any WebSocketConnection) { self.base = base }
    func send(_ message: WebSocketMessage) async throws { try await base.send(message) }
    func receive() async throws -> WebSocketEvent {
        let event = try await base.receive()
        if event == .message(.text("VIOLATION")) { throw WebSocketError.protocolViolation("a masked frame") }
        return event
    }
    func ping() async throws { try await base.ping() }
    func close(code: WebSocketCloseCode, reason: String) async { await base.close(code: code, reason: reason) }
}

/// Opens each socket on a peer that greets, drops on "die" and breaks the protocol on "violate".
struct ReviewViolatingEngine: Transport {
    let handshakes = Locked(0)
    var capabilities: TransportCapabilities { [.webSocket] }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let url = request.urlRequest.url!
        handshakes.withLock { $0 += 1 }
        let script = WebSocketScript(onOpen: [.send(.text("hello"))]) { message in
            switch message {
            case .text("die"): [.drop]
            case .text("violate"): [.send(.text("VIOLATION"))]
            default: [.send(message)]
            }
        }
        request.webSocket?.accept(ReviewViolatingConnection(script.makeConnection()))
        return TransportResponse(statusCode: 101, headerFields: ["Upgrade": "websocket"], url: url, data: Data())
    }
}

@Suite("WebSocket hardening: heartbeat during a reconnection")
struct WebSocketReviewHeartbeatProbes {
    @Test("a protocol violation never reconnects, also after a heartbeat ran during an earlier reconnection")
    func staleHeartbeatFlag() async throws { try await violation(heartbeat: true) }

    @Test("control: without a heartbeat the same violation ends the messages (passes)")
    func withoutHeartbeat() async throws { try await violation(heartbeat: false) }

    private func violation(heartbeat: Bool) async throws {
        let engine = ReviewViolatingEngine()
        var options = WebSocketOptions()
        if heartbeat { options.heartbeat = WebSocketHeartbeat(every: 0.05, timeout: 0.2) }
        options.reconnection = WebSocketReconnection(delay: 0.5, maximumAttempts: 3, maximumDelay: 0.5)
        let socket = try await Provider<SocketTarget>(transport: engine).webSocket(SocketTarget(), options: options)
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text("die"))
        // Reconnects after 0.5 s; meanwhile the heartbeat pings the dead connection #1.
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text("violate"))
        let after: String
        do { after = "\(String(describing: try await messages.next()))" } catch { after = "threw \(error)" }
        print("PROBE after a protocol violation: \(after); handshakes \(engine.handshakes.value)")
        #expect(after.hasPrefix("threw"), "the violation reconnected: the stale heartbeatMissed flag made it 'lost'")
        #expect(engine.handshakes.value == 2)
        await socket.close()
    }
}
