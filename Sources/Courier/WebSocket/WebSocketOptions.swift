import Foundation

/// How ``Provider/webSocket(_:options:)`` opens a socket and keeps it: subprotocols, limits and
/// heartbeats.
///
/// ```swift
/// var options = WebSocketOptions()
/// options.subprotocols = ["graphql-transport-ws"]
/// options.heartbeat = WebSocketHeartbeat(every: 20, timeout: 10)
/// let socket = try await provider.webSocket(.subscriptions, options: options)
/// ```
public struct WebSocketOptions: Sendable {
    /// The subprotocols offered, in order of preference; the server picks one
    /// (``WebSocket/subprotocol``). None by default.
    public var subprotocols: [String] = []
    /// The largest message received, in bytes: a larger one ends ``WebSocket/messages`` with
    /// ``WebSocketError/messageTooBig(limit:)`` and the socket closes with 1009. 16 MiB by default.
    public var maximumMessageSize = 16 << 20
    /// The most sends waiting for the engine at once: one more fails at once with
    /// ``WebSocketError/sendBufferFull(limit:)`` instead of queueing without bound. 64 by default.
    public var sendBufferLimit = 64
    /// Pings to find a connection lost without a close frame, or `nil` (the default) for none.
    /// A pong is read as ``WebSocket/messages`` is: one that arrives behind messages nobody reads
    /// stays unread and counts as missing, so a socket with a heartbeat keeps a reader.
    public var heartbeat: WebSocketHeartbeat?
    /// Whether and how a lost connection opens again, or `nil` (the default) for never.
    public var reconnection: WebSocketReconnection?
    /// Compression offered in the handshake (``WebSocketCompression``), or `nil` (the default)
    /// for none. An engine that cannot compress sends uncompressed messages.
    public var compression: WebSocketCompression?
    /// How long a close waits for the peer's close frame: 5 seconds by default.
    public var closeTimeout: TimeInterval = 5

    /// Options with the defaults.
    public init() {}
}

/// A ping every ``interval`` seconds; a pong that does not come within ``timeout`` seconds makes
/// the connection lost (``WebSocketError/heartbeatMissed(seconds:)``).
public struct WebSocketHeartbeat: Sendable, Hashable {
    /// Seconds between pings.
    public var interval: TimeInterval
    /// Seconds a pong may take.
    public var timeout: TimeInterval

    /// Creates a heartbeat.
    /// - Parameters:
    ///   - interval: Seconds between pings.
    ///   - timeout: Seconds a pong may take.
    public init(every interval: TimeInterval, timeout: TimeInterval) {
        self.interval = interval
        self.timeout = timeout
    }
}
