import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server that accepts the WebSocket handshake (over TLS when given a certificate), then either
/// never reads or writes again (a peer gone dark: no pong, no close, no TLS close_notify), or
/// resets the connection on the first byte it gets (``Behaviour``).
final class SilentWebSocketPeer: Sendable {
    let baseURL: URL
    private let process: Process

    private static let script = """
        import socket, ssl, sys, base64, hashlib, struct
        context = None
        if sys.argv[1] != "-":
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        print(server.getsockname()[1], flush=True)
        kept = []
        while True:
            connection, _ = server.accept()
            if context: connection = context.wrap_socket(connection, server_side=True)
            head = b""
            while b"\\r\\n\\r\\n" not in head: head += connection.recv(4096)
            key = [line.split(b":", 1)[1].strip() for line in head.split(b"\\r\\n")
                   if line.lower().startswith(b"sec-websocket-key:")][0]
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            extension = b"Sec-WebSocket-Extensions: permessage-deflate\\r\\n" if sys.argv[3] == "extension" else b""
            connection.sendall(b"HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\n" + extension
                               + b"Connection: Upgrade\\r\\nSec-WebSocket-Accept: " + accept + b"\\r\\n\\r\\n")
            if sys.argv[3] == "reset":
                connection.recv(1)
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                connection.close()
            else:
                kept.append(connection)
        """

    /// What the peer does after its 101.
    enum Behaviour: String {
        /// Nothing, ever.
        case silent
        /// Resets the connection on the first byte it gets.
        case reset
        /// Nothing, and its 101 names permessage-deflate, offered or not.
        case `extension`
    }

    init(tls: (certificate: URL, key: URL)?, _ behaviour: Behaviour = .silent) throws {
        let (process, port) = try PythonWebSocketPeer.launch(
            Self.script, arguments: [tls?.certificate.path ?? "-", tls?.key.path ?? "-", behaviour.rawValue])
        self.process = process
        baseURL = URL(string: "\(tls == nil ? "ws" : "wss")://127.0.0.1:\(port)")!
    }

    deinit {
        // A process started by Foundation's `Process` inherits a blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

extension SerializedSuite {
    /// A peer that goes silent, or resets the connection, on both `ws:` and `wss:`.
    @Suite(
        "WebSockets: a silent or resetting peer",
        .enabled(if: PythonWebSocketPeer.isAvailable, "needs python3 (.ci/run has it)"))
    struct WebSocketSilentPeerTests {
        /// The error the messages of a socket with a heartbeat (0.2 s, 0.2 s) on a silent peer
        /// end with, if they end within `seconds` (the close timeout is 60 s, TLS's own shutdown
        /// wait 5 s: an engine that waits for either fails this).
        static func heartbeatFailure(secure: Bool, within seconds: TimeInterval) async throws -> String? {
            let authority = try TestCertificateAuthority()
            defer { authority.remove() }
            let peer = try SilentWebSocketPeer(tls: secure ? (authority.serverCertificate, authority.serverKey) : nil)
            let trust =
                secure ? TrustPolicy(roots: .only([try TrustPolicyTests.contents(authority.caCertificate)])) : nil
            let provider = Provider<Chat>(transport: AsyncHTTPClientTransport(), options: ProviderOptions(trust: trust))
            var options = WebSocketOptions()
            options.heartbeat = WebSocketHeartbeat(every: 0.2, timeout: 0.2)
            options.closeTimeout = 60
            let socket = try await provider.webSocket(.peer(peer.baseURL, path: "/"), options: options)
            return await within(seconds) { () -> String in
                do {
                    var messages = socket.messages.makeAsyncIterator()
                    return "a message: \(String(describing: try await messages.next()))"
                } catch WebSocketError.heartbeatMissed {
                    return "heartbeatMissed"
                } catch {
                    return "\(error)"
                }
            }
        }

        @Test("a silent peer fails the socket with heartbeatMissed in the heartbeat's time, on ws: and wss:")
        func silent() async throws {
            #expect(try await Self.heartbeatFailure(secure: false, within: 4) == "heartbeatMissed")
            #expect(try await Self.heartbeatFailure(secure: true, within: 4) == "heartbeatMissed")
        }

        @Test("a 101 that names an extension the client did not offer fails the handshake")
        func extensionNotOffered() async throws {
            let peer = try SilentWebSocketPeer(tls: nil, .extension)
            let error = await #expect(throws: CourierError.self) {
                try await Provider<Chat>(transport: AsyncHTTPClientTransport()).webSocket(
                    .peer(peer.baseURL, path: "/"))
            }
            guard case .transport(let inner, _)? = error, case WebSocketError.invalidHandshake = inner else {
                Issue.record("expected invalidHandshake, got \(String(describing: error))")
                return
            }
        }

        @Test("sends to a peer that reset the connection fail with a typed error")
        func resetPeer() async throws {
            let peer = try SilentWebSocketPeer(tls: nil, .reset)
            let socket = try await Provider<Chat>(transport: AsyncHTTPClientTransport()).webSocket(
                .peer(peer.baseURL, path: "/"))
            try await socket.send(.text("hello"))  // the peer resets the connection on its first byte
            var thrown: (any Error)?
            // Messages over the queue's limit wait for their write, which fails once the reset arrived.
            for _ in 0..<50 where thrown == nil {
                do { try await socket.send(.binary(Data(count: (1 << 20) + 1))) } catch { thrown = error }
            }
            #expect(thrown is TransportFailure || thrown is WebSocketError, "threw \(String(reflecting: thrown))")
            await socket.close()
        }
    }
}
