import Courier
import CourierTesting
import Foundation
import Testing

/// CourierTesting's WebSocket server, checked against a peer written by others: the Python
/// `websockets` package's client (installed by .ci/run).
@Suite("WebSocket loopback server")
struct WebSocketServerTests {
    @Test("SHA-1 and Sec-WebSocket-Accept match FIPS 180 and RFC 6455's examples")
    func accept() {
        #expect(
            SHA1.digest(Data("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            SHA1.digest(Data()).map { String(format: "%02x", $0) }.joined()
                == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let long = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            SHA1.digest(long).map { String(format: "%02x", $0) }.joined() == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        #expect(SHA1.webSocketAccept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("frames round-trip, masked or not, at each length encoding")
    func frames() {
        for size in [0, 125, 126, 65_535, 65_536] {
            let frame = WebSocketFrame(
                opcode: WebSocketFrame.binary, payload: Data(repeating: 7, count: size), fin: size % 2 == 0)
            for mask in [nil, [1, 2, 3, 4] as [UInt8]] {
                let peer = WebSocketPeerHarness(frame.encoded(mask: mask))
                #expect(peer.first == frame, "size \(size), masked \(mask != nil)")
            }
        }
    }

    @Test(
        "a Python websockets client: handshake accepted, messages echoed both kinds, its close code recorded",
        .enabled(if: PythonScript.hasWebSockets, "needs Python's websockets package (.ci/run installs it)"))
    func pythonClient() async throws {
        let server = try WebSocketServer(
            handshake: { _ in .accept(subprotocol: "chat") },
            session: { peer in
                while case .message(let message)? = peer.receive() { peer.send(message) }
            })
        defer { server.stop() }
        let script = """
            from websockets.sync.client import connect
            with connect("ws://127.0.0.1:\(server.port)/room", subprotocols=["chat"]) as ws:
                ws.send("hello"); print(ws.recv())
                ws.send(b"\\x00\\x01"); print(ws.recv().hex())
                print(ws.subprotocol)
                ws.close(code=4001, reason="bye")
            """
        let output = try PythonScript.run(script)
        #expect(output == "hello\n0001\nchat\n")
        #expect(server.received.last == .closed(code: 4001, reason: "bye"))
        #expect(server.handshakes.first?.path == "/room")
    }
}

/// Decodes the first frame of some bytes, as a peer reads it.
private struct WebSocketPeerHarness {
    let first: WebSocketFrame?

    init(_ bytes: Data) {
        first = WebSocketFrame.decodedForTests(bytes)
    }
}

/// Runs a Python script and returns what it printed.
enum PythonScript {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Whether `python3` can import `websockets` (a fresh machine with only Swift cannot: the
    /// test that needs it is then skipped, and reported so).
    static let hasWebSockets = (try? run("import websockets", timeout: 10)) != nil

    static func run(_ script: String, timeout: TimeInterval = 30) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Failed(description: "python3 exited \(process.terminationStatus): \(problem)")
        }
        return printed
    }
}
