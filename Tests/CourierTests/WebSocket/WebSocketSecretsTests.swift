import Courier
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a socket writes to the logger: secrets seeded in the handshake (a token, an API key in the
/// query), in messages both ways (JSON fields, a token in a plain text form, binary bytes) and in
/// the close reason are searched in every form `SecretShapesTests` knows.
@Suite("WebSocket secrets")
struct WebSocketSecretsTests {
    static let token = "Zw1+SocketTok=Aa"
    static let apiKey = "Zw2+SocketKey=Bb"
    static let jsonPassword = "Zw3+JsonPass=Cc"
    static let plainBearer = "Zw4+PlainBearer=Dd"
    static let binary = "Zw5+BinaryTok=Ee"
    static let received = "Zw6+Received=Ff"

    /// Opens a socket with every secret on its way, exchanges messages, closes; returns the log.
    private func logged(_ options: NetworkLoggerPlugin.LogOptions) async throws -> String {
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(
            configuration: .init(output: { _, entries in lines.withLock { $0 += entries } }, logOptions: options))
        let provider = Provider<SocketTarget>(
            stubClosure: Provider.immediatelyStub, plugins: [logger, AccessTokenPlugin { _ in Self.token }])
        var target = SocketTarget(
            script: WebSocketScript(onOpen: [.send(.text(#"{"access_token":"\#(Self.received)"}"#))]))
        target.task = .requestParameters(parameters: ["api_key": Self.apiKey], encoding: URLEncoding.queryString)
        let socket = try await provider.webSocket(target)
        try await socket.send(.text(#"{"password":"\#(Self.jsonPassword)"}"#))
        try await socket.send(.binary(Data(Self.binary.utf8)))
        try await socket.send(.text("room=4&access_token=\(Self.plainBearer)"))
        var messages = socket.messages.makeAsyncIterator()
        for _ in 0..<4 { _ = try await messages.next() }
        await socket.close()
        return lines.value.joined(separator: "\n")
    }

    @Test("by default a socket's log has kinds and sizes, and none of the secrets in any form")
    func byDefault() async throws {
        let log = try await logged(.default)
        #expect(log.contains("WebSocket"))
        #expect(log.contains("sent text, "))
        #expect(log.contains("closed 1000 (normal closure) by this side"))
        for secret in [Self.token, Self.apiKey, Self.jsonPassword, Self.plainBearer, Self.binary, Self.received] {
            for form in SecretShapesTests.forms(of: secret) { #expect(!log.contains(form), "\(secret) as \(form)") }
        }
    }

    @Test("verbose: contents are logged, with secret fields and tokens redacted")
    func verbose() async throws {
        let log = try await logged(.verbose)
        #expect(log.contains("password"))
        for secret in [Self.token, Self.apiKey, Self.jsonPassword, Self.plainBearer, Self.binary, Self.received] {
            for form in SecretShapesTests.forms(of: secret) { #expect(!log.contains(form), "\(secret) as \(form)") }
        }
    }
}
