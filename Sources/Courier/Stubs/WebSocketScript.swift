import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The peer a stubbed WebSocket target opens on (``TargetType/sampleWebSocket``): how it answers
/// the handshake, what it sends when the socket opens, and how it answers each message.
///
/// ```swift
/// var sampleWebSocket: WebSocketScript {
///     WebSocketScript(
///         handshake: { request in
///             request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh"
///                 ? .accept() : .refuse(status: 401)
///         },
///         onOpen: [.send(.text("welcome"))],
///         reply: { message in
///             message == .text("bye") ? [.close(.normalClosure)] : [.send(message)]
///         })
/// }
/// ```
/// The stub runs the whole pipeline as a real socket does: plugins, the interceptor, validation
/// of the handshake, retries, and each message's observation.
public struct WebSocketScript: Sendable {
    /// How the peer answers an opening handshake.
    public enum Handshake: Sendable {
        /// `101 Switching Protocols`, choosing `subprotocol` (or none).
        case accept(subprotocol: String? = nil)
        /// Another status: the upgrade is refused with this response.
        case refuse(status: Int, headerFields: [String: String] = [:], body: Data = Data())
    }

    /// What the peer does.
    public enum Action: Sendable, Hashable {
        /// Sends the message.
        case send(WebSocketMessage)
        /// Sends a close frame with the code and reason.
        case close(WebSocketCloseCode, reason: String = "")
        /// Drops the connection without a close frame (a lost connection).
        case drop
    }

    let handshake: @Sendable (URLRequest) -> Handshake
    let onOpen: [Action]
    let reply: @Sendable (WebSocketMessage) -> [Action]
    /// Whether the peer answers pings; when `false`, a ping waits until it is cancelled (a
    /// connection gone silent, for heartbeat tests). `true` by default.
    public var answersPings = true

    /// Creates a scripted peer.
    /// - Parameters:
    ///   - handshake: How each handshake is answered, from the request as sent; accepted by default.
    ///   - onOpen: What the peer does once the socket is open; nothing by default.
    ///   - reply: What the peer does with each message it receives; it echoes it by default.
    public init(
        handshake: @escaping @Sendable (URLRequest) -> Handshake = { _ in .accept() }, onOpen: [Action] = [],
        reply: @escaping @Sendable (WebSocketMessage) -> [Action] = { [.send($0)] }
    ) {
        self.handshake = handshake
        self.onOpen = onOpen
        self.reply = reply
    }

    /// How the peer answers `request`'s handshake: for a transport that plays a scripted peer
    /// itself (a replayer).
    /// - Parameter request: The handshake as sent.
    /// - Returns: The peer's answer.
    public func answer(_ request: URLRequest) -> Handshake {
        handshake(request)
    }

    /// A connection to this peer, its `onOpen` actions done: for a transport that plays a
    /// scripted peer itself, which hands it to ``WebSocketUpgrade/accept(_:)``.
    /// - Returns: The connection.
    public func makeConnection() -> any WebSocketConnection {
        ScriptedWebSocketConnection(script: self)
    }

    /// A peer that accepts every handshake and echoes every message.
    public static var echo: WebSocketScript { WebSocketScript() }
}
