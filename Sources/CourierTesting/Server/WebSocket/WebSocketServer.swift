import Courier
import Foundation

/// A WebSocket server on 127.0.0.1 (RFC 6455, no extensions), for engine and integration tests:
/// each connection's session is a closure that plays the server with a ``WebSocketPeer``, on the
/// connection's own thread.
///
/// ```swift
/// let server = try WebSocketServer { peer in
///     while case .message(let message)? = peer.receive() { peer.send(message) }   // an echo
/// }
/// defer { server.stop() }
/// // a target whose baseURL is server.baseURL opens as a socket
/// ```
/// `handshake` decides each opening handshake: accepted (with a subprotocol, or none), or refused
/// with any reply (a 401 and its body, a 429 with `Retry-After`). A request that is not a valid
/// handshake (not a `GET`, no `Upgrade: websocket`, no `Sec-WebSocket-Key`, a version other than
/// 13) is refused with 400. Every handshake and every message and close the sessions' peers
/// received are kept, in order.
public final class WebSocketServer: Sendable {
    /// How a handshake is answered.
    public enum Handshake: Sendable {
        /// `101 Switching Protocols`, choosing `subprotocol` (or none).
        case accept(subprotocol: String? = nil)
        /// Another reply: the upgrade is refused.
        case refuse(ServerReply)
    }

    private let server: LoopbackServer
    private let log = Locked<[WebSocketPeer.Event]>([])

    /// Starts a server.
    /// - Parameters:
    ///   - port: The port; 0 (the default) lets the system choose one.
    ///   - handshake: Answers each valid handshake; accepts every one by default.
    ///   - session: Plays the server's side of each accepted connection; the connection closes
    ///     when it returns.
    /// - Throws: A socket error when the port cannot be opened.
    public init(
        port: UInt16 = 0, handshake: @escaping @Sendable (ServerRequest) -> Handshake = { _ in .accept() },
        session: @escaping @Sendable (WebSocketPeer) -> Void
    ) throws {
        let log = log
        server = try LoopbackServer(port: port) { request in
            guard let key = Self.key(of: request) else { return ServerReply(status: 400) }
            switch handshake(request) {
            case .refuse(let reply): return reply
            case .accept(let subprotocol):
                var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                head += "Sec-WebSocket-Accept: \(SHA1.webSocketAccept(forKey: key))\r\n"
                if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
                var reply = ServerReply.raw([.send(Data((head + "\r\n").utf8))])
                reply.takeover = { descriptor in
                    session(
                        WebSocketPeer(request: request, descriptor: descriptor) { event in
                            log.withLock { $0.append(event) }
                        })
                }
                return reply
            }
        }
    }

    /// The port the server listens on.
    public var port: UInt16 { server.port }

    /// `http://127.0.0.1:<port>`: a target's base URL (`ws:` works too).
    public var baseURL: URL { server.baseURL }

    /// Every opening handshake received, valid or not, in order.
    public var handshakes: [ServerRequest] { server.requests }

    /// Every message and close the peers received (through ``WebSocketPeer/receive()``), in order.
    public var received: [WebSocketPeer.Event] { log.value }

    /// Stops listening and cuts every connection.
    public func stop() {
        server.stop()
    }

    /// The `Sec-WebSocket-Key` of a valid opening handshake, or `nil`.
    private static func key(of request: ServerRequest) -> String? {
        guard request.method == "GET", request.header("Upgrade")?.lowercased() == "websocket",
            request.header("Connection")?.lowercased().contains("upgrade") == true,
            request.header("Sec-WebSocket-Version") == "13"
        else { return nil }
        return request.header("Sec-WebSocket-Key")
    }
}
