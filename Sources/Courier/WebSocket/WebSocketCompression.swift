/// Compression of a socket's messages: permessage-deflate (RFC 7692), offered in the opening
/// handshake and used only when the server agrees (``WebSocket/isCompressed`` says whether it did).
///
/// ```swift
/// var options = WebSocketOptions()
/// options.compression = .deflate
/// let socket = try await provider.webSocket(.chat(room: 42), options: options)
/// ```
/// Off by default: compressing a secret together with text a peer or an attacker controls in one
/// compression context lets the compressed sizes reveal the secret (the CRIME and BREACH attacks).
/// Turn it on for sockets whose messages carry no secret, or with ``noContextTakeover``, which
/// compresses each message this side sends afresh (a secret sent shares no context with the
/// messages before it, at some cost in ratio; the server's own messages are its choice). Each
/// message received is inflated within ``WebSocketOptions/maximumMessageSize``: a message that
/// would inflate past it fails with ``WebSocketError/messageTooBig(limit:)`` and closes with 1009,
/// before it is inflated whole.
public struct WebSocketCompression: Sendable, Hashable {
    /// Whether this side compresses each message it sends on its own, without the history of
    /// the ones before (`client_no_context_takeover`). `false` by default. It governs the
    /// messages sent only: the server decides for its own (whether its answer carries
    /// `server_no_context_takeover`), and they are inflated either way.
    public var noContextTakeover: Bool

    /// permessage-deflate with the defaults.
    public static let deflate = WebSocketCompression()

    /// Creates the compression settings.
    /// - Parameter noContextTakeover: Whether each message sent is compressed on its own.
    public init(noContextTakeover: Bool = false) {
        self.noContextTakeover = noContextTakeover
    }
}
