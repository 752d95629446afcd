import Foundation
import Testing

@testable import CourierAsyncHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebSocket server that sends hand-made frames: Python's standard library only, on
/// 127.0.0.1, run as a child process for one test. It answers the handshake with the
/// `Sec-WebSocket-Extensions` it is given (`MANY`: 100 fields; `HUGE`: one of 80 KB; `-`:
/// none), plays one scenario of compressed frames (`race`, `bomb`, `rfc`, `split-ping`,
/// `rsv1-continuation`, `rsv1-ping`, `rsv1-uncompressed-continuation`, `none`), then records
/// the pings, pongs and close code it receives in a file the test reads.
final class RawDeflatePeer: Sendable {
    let baseURL: URL
    private let record: URL
    private let process: Process

    init(_ scenario: String, extensions: String = "permessage-deflate") throws {
        record = FileManager.default.temporaryDirectory.appendingPathComponent("raw-peer-\(UUID().uuidString)")
        let (process, port) = try PythonWebSocketPeer.launch(
            Self.script, arguments: [scenario, record.path, extensions])
        self.process = process
        baseURL = URL(string: "ws://127.0.0.1:\(port)")!
    }

    deinit {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: record)
    }

    /// What the peer recorded, once it holds `line` (polled, with a deadline of 10 s).
    func recorded(waitingFor line: String) async throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
            if text.contains(line) { return text }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        return (try? String(contentsOf: record, encoding: .utf8)) ?? ""
    }

    /// A socket to the peer, compression offered, and the engine's connection under it.
    func open(limit: Int = 1 << 20) async throws -> (WebSocket, NIOWebSocketConnection) {
        let engine = ConnectionCapture(base: AsyncHTTPClientTransport())
        var options = WebSocketOptions()
        options.compression = .deflate
        options.maximumMessageSize = limit
        let socket = try await Provider<Chat>(transport: engine).webSocket(.peer(baseURL, path: "/"), options: options)
        return (socket, try #require(engine.connection as? NIOWebSocketConnection))
    }

    private static let script = #"""
        # A raw WebSocket server for the review probes: answers the handshake with the extension field
        # given, then plays one scenario of hand-made frames. Prints its port first.
        import base64, hashlib, socket, struct, sys, threading, zlib
        scenario, out, ext = sys.argv[1], sys.argv[2], sys.argv[3]
        srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", 0)); srv.listen(8)
        print(srv.getsockname()[1], flush=True)

        def exact(c, n):
            b = b""
            while len(b) < n:
                d = c.recv(n - len(b))
                if not d: raise EOFError
                b += d
            return b

        def read_frame(c):
            b1, b2 = exact(c, 2)
            n = b2 & 127
            if n == 126: n = struct.unpack(">H", exact(c, 2))[0]
            elif n == 127: n = struct.unpack(">Q", exact(c, 8))[0]
            mask = exact(c, 4) if b2 & 128 else b"\0\0\0\0"
            data = bytes(x ^ mask[i % 4] for i, x in enumerate(exact(c, n)))
            return b1 & 15, data

        def frame(op, data, fin=True, rsv1=False):
            b1 = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | op
            n = len(data)
            if n < 126: h = bytes([b1, n])
            elif n < 65536: h = bytes([b1, 126]) + struct.pack(">H", n)
            else: h = bytes([b1, 127]) + struct.pack(">Q", n)
            return h + data

        comp = zlib.compressobj(wbits=-15)
        def deflate(msg):
            d = comp.compress(msg) + comp.flush(zlib.Z_SYNC_FLUSH)
            assert d.endswith(b"\0\0\xff\xff")
            return d[:-4]

        def record(text):
            with open(out, "a") as f: f.write(text + "\n")

        def until_close(c):
            try:
                while True:
                    op, data = read_frame(c)
                    if op == 8:
                        record("close %d" % (struct.unpack(">H", data[:2])[0] if len(data) >= 2 else 1005))
                        c.sendall(frame(8, data[:2]))
                        return
                    if op == 9: record("ping"); c.sendall(frame(10, data))
                    if op == 10: record("pong")
            except Exception as e:
                record("end " + type(e).__name__)

        def serve(c):
            head = b""
            while b"\r\n\r\n" not in head: head += c.recv(1)
            key = [l.split(b":", 1)[1].strip() for l in head.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key:")][0]
            accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            if ext == "MANY": fields = b"".join(b"Sec-WebSocket-Extensions: permessage-deflate\r\n" for _ in range(100))
            elif ext == "HUGE": fields = b"Sec-WebSocket-Extensions: permessage-deflate" + b"; server_no_context_takeover" * 3000 + b"\r\n"
            elif ext == "-": fields = b""
            else: fields = b"Sec-WebSocket-Extensions: " + ext.encode() + b"\r\n"
            c.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      + fields + b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
            if scenario == "race":
                c.sendall(frame(1, deflate(b"X" * 100), rsv1=True))
                read_frame(c)
                c.sendall(frame(1, deflate(b"Y" * 100), rsv1=True))
                read_frame(c)
                c.sendall(frame(1, deflate(b"Y" * 100), rsv1=True))
            elif scenario == "bomb":
                c.sendall(frame(2, deflate(bytes(8 << 20)), rsv1=True))
            elif scenario == "rfc":
                # RFC 7692 §7.2.3: shared window, no compression block, BFINAL, two blocks in one message
                for hexa in ["f2 48 cd c9 c9 07 00", "f2 00 11 00 00", "00 05 00 fa ff 48 65 6c 6c 6f 00",
                             "f3 48 cd c9 c9 07 00 00", "f2 48 05 00 00 00 ff ff ca c9 c9 07 00", ""]:
                    c.sendall(frame(1, bytes.fromhex(hexa), rsv1=True))
                c.sendall(frame(1, b"plain"))
            elif scenario == "split-ping":
                d = deflate(b"fragmented " * 50)
                c.sendall(frame(1, d[:5], fin=False, rsv1=True) + frame(9, b"p") + frame(0, d[5:], fin=True))
            elif scenario == "rsv1-continuation":
                d = deflate(b"abc" * 10)
                c.sendall(frame(1, d[:3], fin=False, rsv1=True) + frame(0, d[3:], fin=True, rsv1=True))
            elif scenario == "sink":
                pass
            elif scenario == "rsv1-ping":
                c.sendall(frame(9, b"p", rsv1=True))
            elif scenario == "rsv1-uncompressed-continuation":
                c.sendall(frame(1, b"abc", fin=False) + frame(0, b"def", fin=True, rsv1=True))
            until_close(c)
            c.close()

        while True:
            c, _ = srv.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()
        """#
}
