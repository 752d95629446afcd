import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An engine that opens every socket on a scripted peer, as a network engine would.
struct ScriptedSocketEngine: Transport {
    let script: WebSocketScript
    /// The 101's `Sec-WebSocket-Extensions`, if any.
    var extensions: String?

    var capabilities: TransportCapabilities { [.webSocket] }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let url = request.urlRequest.url!
        guard let upgrade = request.webSocket else {
            return TransportResponse(statusCode: 404, headerFields: [:], url: url, data: Data())
        }
        switch script.answer(request.urlRequest) {
        case .accept:
            upgrade.accept(script.makeConnection())
            var fields: HeaderFields = ["Upgrade": "websocket"]
            if let extensions { fields.append(name: "Sec-WebSocket-Extensions", value: extensions) }
            return TransportResponse(statusCode: 101, headerFields: fields, url: url, data: Data())
        case .refuse(let status, let fields, let body):
            return TransportResponse(statusCode: status, headerFields: HeaderFields(fields), url: url, data: body)
        }
    }
}

/// A socket's messages in a HAR file, as browsers export them, secrets redacted; and played back.
@Suite("WebSocket recordings")
struct WebSocketHARTests {
    static let token = "Zh1+SocketTok=Aa"
    static let password = "Zh2+SocketPass=Bb"

    /// Records one socket session to a new file and returns the file.
    private func record() async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("socket-\(UUID().uuidString).har")
        let engine = ScriptedSocketEngine(script: WebSocketScript(onOpen: [.send(.text("hello"))]))
        let provider = Provider<SocketTarget>(
            transport: HARRecorder(recording: engine, to: file), plugins: [FixedSigner(token: Self.token)])
        let socket = try await provider.webSocket(SocketTarget(baseURL: URL(string: "wss://chat.example")!))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text(#"{"password":"\#(Self.password)","text":"hi"}"#))
        try await socket.send(.binary(Data([1, 2, 3])))
        _ = try await messages.next()
        _ = try await messages.next()
        await socket.close()
        return file
    }

    @Test("the entry carries _webSocketMessages (type, time, opcode, data; binary in Base64), no secret in any form")
    func recorded() async throws {
        let file = try await record()
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try String(contentsOf: file, encoding: .utf8)
        for secret in [Self.token, Self.password] {
            for form in SecretShapesTests.forms(of: secret) { #expect(!text.contains(form), "\(secret) as \(form)") }
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let log = json?["log"] as? [String: Any]
        let entry = try #require((log?["entries"] as? [[String: Any]])?.first)
        #expect((entry["response"] as? [String: Any])?["status"] as? Int == 101)
        let messages = try #require(entry["_webSocketMessages"] as? [[String: Any]])
        #expect(messages.map { $0["type"] as? String } == ["receive", "send", "send", "receive", "receive"])
        #expect(messages.map { $0["opcode"] as? Int } == [1, 1, 2, 1, 2])
        #expect(messages[2]["data"] as? String == "AQID")
        #expect((messages[1]["data"] as? String)?.contains("hi") == true)
        #expect(messages.allSatisfy { ($0["time"] as? Double ?? 0) > 1_700_000_000 })
    }

    @Test("a replayer plays the socket back: the greeting at once, then each answer after each message sent")
    func replayed() async throws {
        let file = try await record()
        defer { try? FileManager.default.removeItem(at: file) }
        let provider = Provider<SocketTarget>(transport: try HARReplayer(file: file))
        let socket = try await provider.webSocket(SocketTarget(baseURL: URL(string: "wss://chat.example")!))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .text("hello"))
        try await socket.send(.text("anything"))
        try await socket.send(.binary(Data()))
        let echoed = try await messages.next()
        #expect(echoed.map { if case .text(let text) = $0 { text.contains("\"text\":\"hi\"") } else { false } } == true)
        #expect(try await messages.next() == .binary(Data([1, 2, 3])))
        await socket.close()
    }
}

/// Signs each request with one token.
private struct FixedSigner: PluginType {
    let token: String

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
