import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// From the hostile review of issue 58 (WebSocket targets): each test states the contract it
// checks, and failed before its fix.

/// A connection over a scripted peer that records each `close` call it gets, by connection number.
final class ReviewSpyConnection: WebSocketConnection {
    let base: any WebSocketConnection
    let number: Int
    let closes: Locked<[Int]>

    init(_ base: any WebSocketConnection, number: Int, closes: Locked<[Int]>) {
        (self.base, self.number, self.closes) = (base, number, closes)
    }

    func send(_ message: WebSocketMessage) async throws { try await base.send(message) }
    func receive() async throws -> WebSocketEvent { try await base.receive() }
    func ping() async throws { try await base.ping() }
    func close(code: WebSocketCloseCode, reason: String) async {
        closes.withLock { $0.append(number) }
        await base.close(code: code, reason: reason)
    }
}

/// An engine that opens every socket on `script`'s peer, counting handshakes and closes.
struct ReviewSpyEngine: Transport {
    let script: WebSocketScript
    let handshakes = Locked(0)
    let closes = Locked<[Int]>([])

    var capabilities: TransportCapabilities { [.webSocket] }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let url = request.urlRequest.url!
        let number = handshakes.withLock { count in
            count += 1
            return count
        }
        request.webSocket?.accept(ReviewSpyConnection(script.makeConnection(), number: number, closes: closes))
        return TransportResponse(statusCode: 101, headerFields: ["Upgrade": "websocket"], url: url, data: Data())
    }
}

/// Keeps every activity's kind, as text.
struct ReviewObserver: PluginType {
    let kinds = Locked<[String]>([])
    func didObserve(_ activity: WebSocketActivity, target: any TargetType) {
        kinds.withLock { $0.append("\(activity.kind)") }
    }
}

@Suite("WebSocket hardening: WebSocket probes", .serialized)
struct WebSocketHardeningTests {
    /// Echo peer that drops the connection on "die".
    static let dying = WebSocketScript(onOpen: [.send(.text("hello"))]) { message in
        message == .text("die") ? [.drop] : [.send(message)]
    }

    static func reconnecting(delay: TimeInterval, attempts: Int = 3) -> WebSocketOptions {
        var options = WebSocketOptions()
        options.reconnection = WebSocketReconnection(delay: delay, maximumAttempts: attempts, maximumDelay: delay)
        return options
    }

    static func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }

    // MARK: - Leaks: `stop` discards the connection `end` hands it

    @Test("a socket no longer referenced closes with 1001, and its plugins see that close (its last observation)")
    func deinitCloseNotObserved() async throws {
        let observer = ReviewObserver()
        let engine = ReviewSpyEngine(script: .echo)
        do {
            let socket = try await Provider<SocketTarget>(transport: engine, plugins: [observer]).webSocket(
                SocketTarget())
            try await socket.send(.text("hi"))
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        print("PROBE deinit: closes \(engine.closes.value); observed \(observer.kinds.value)")
        #expect(engine.closes.value == [1])
        #expect(observer.kinds.value.last?.hasPrefix("closed") == true, "the deinit close is never observed")
    }

    // MARK: - Secrets

    @Test("a binary message carrying JSON secrets is not written to a HAR file as is")
    func harBinarySecret() async throws {
        let password = "Zq7+BinaryPass=Gg"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("review58-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }
        let engine = ScriptedSocketEngine(script: .echo)
        let provider = Provider<SocketTarget>(transport: HARRecorder(recording: engine, to: file))
        let socket = try await provider.webSocket(SocketTarget(baseURL: URL(string: "wss://chat.example")!))
        try await socket.send(.binary(Data(#"{"password":"\#(password)"}"#.utf8)))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        await socket.close()
        let text = try String(contentsOf: file, encoding: .utf8)
        let leaked = Data(#"{"password":"\#(password)"}"#.utf8).base64EncodedString()
        print("PROBE HAR contains the Base64 of the password JSON: \(text.contains(leaked))")
        #expect(!text.contains(leaked), "the binary message's password is in the HAR file, in Base64")
    }

    @Test("a peer's close reason carrying a token is not logged by default, nor in the error's description")
    func closeReasonSecret() async throws {
        let token = "Zq8+CloseTok=Hh"
        let reason = "access_token=\(token) expired"
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }))
        let script = WebSocketScript(onOpen: [.close(WebSocketCloseCode.application(4001)!, reason: reason)])
        let socket = try await Provider<SocketTarget>(stubClosure: Provider.immediatelyStub, plugins: [logger])
            .webSocket(SocketTarget(script: script))
        var messages = socket.messages.makeAsyncIterator()
        _ = try await messages.next()
        let sendError: (any Error)? = await {
            do {
                try await socket.send(.text("x"))
                return nil
            } catch { return error }
        }()
        let described = sendError.map { "\($0)" } ?? ""
        let log = lines.value.joined(separator: "\n")
        print("PROBE log: \(log)\nPROBE error: \(described)")
        #expect(!log.contains(token), "the logger writes the peer's close reason, token included, by default")
        #expect(!described.contains(token), "WebSocketError.closed's description carries the token")
    }
}
