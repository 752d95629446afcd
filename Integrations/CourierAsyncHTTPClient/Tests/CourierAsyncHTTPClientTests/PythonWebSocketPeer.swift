import Foundation

/// A WebSocket server written by others: the Python `websockets` package's, on 127.0.0.1, run
/// as a child process for one test. It echoes every message but these:
/// - `die`: it aborts the connection;
/// - `extensions`: it answers with the extensions agreed (`permessage-deflate` when the client
///   offered it: the server compresses by default);
/// - `zeros N` (or `zeros NxK`): it answers with N zero bytes (K times), a message that
///   compresses a thousandfold.
///
/// A handshake whose `Authorization` is in `refused` is answered 401 with a body from that
/// token's second use on (a token that expired while its socket was open).
final class PythonWebSocketPeer: Sendable {
    let port: Int
    private let process: Process

    /// Whether `python3` can import `websockets` (.ci/run installs it).
    static let isAvailable: Bool = {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import websockets"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    private static let script = """
        import asyncio, ssl, sys
        from http import HTTPStatus
        from websockets.asyncio.server import serve
        tls = None
        if sys.argv[1] != "-":
            tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            tls.load_cert_chain(sys.argv[1], sys.argv[2])
            if sys.argv[3] != "-":
                tls.verify_mode = ssl.CERT_REQUIRED
                tls.load_verify_locations(sys.argv[3])
        refused = set(sys.argv[4:])
        uses = {}
        def check(connection, request):
            token = request.headers.get("Authorization", "")
            uses[token] = uses.get(token, 0) + 1
            if token in refused and uses[token] > 1:
                return connection.respond(HTTPStatus.UNAUTHORIZED, "token expired\\n")
        async def handler(ws):
            async for message in ws:
                if message == "die":
                    ws.transport.abort()
                    return
                if message == "extensions":
                    await ws.send(",".join(e.name for e in ws.protocol.extensions) or "none")
                    continue
                if isinstance(message, str) and message.startswith("zeros "):
                    size, _, count = message[6:].partition("x")
                    for _ in range(int(count or 1)):
                        await ws.send(bytes(int(size)))
                    continue
                await ws.send(message)
        async def main():
            async with serve(handler, "127.0.0.1", 0, process_request=check, max_size=None, ssl=tls) as server:
                print(server.sockets[0].getsockname()[1], flush=True)
                await asyncio.get_running_loop().create_future()
        asyncio.run(main())
        """

    /// Whether it serves `wss:`.
    let secure: Bool

    /// Starts the server, refusing handshakes signed with any of `refused` from their second use;
    /// with `tls`, over TLS with that certificate and key, requiring a client certificate of
    /// `clientAuthority` when given.
    init(refusing refused: [String] = [], tls: (certificate: URL, key: URL, clientAuthority: URL?)? = nil) throws {
        let files = [tls?.certificate.path ?? "-", tls?.key.path ?? "-", tls?.clientAuthority?.path ?? "-"]
        secure = tls != nil
        (process, port) = try Self.launch(Self.script, arguments: files + refused)
    }

    /// Runs a Python `script` with `arguments`, and reads the port it prints on its first line
    /// (which waits until the server listens).
    static func launch(_ script: String, arguments: [String]) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            Foundation.kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        return (process, port)
    }

    deinit {
        // SIGKILL: websockets' server closes gracefully on SIGTERM and its script then waits on.
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "\(secure ? "wss" : "ws")://127.0.0.1:\(port)")! }

    /// Kills the server (SIGKILL): every connection is cut.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
