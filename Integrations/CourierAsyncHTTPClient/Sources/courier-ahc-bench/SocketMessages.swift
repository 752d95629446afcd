import Foundation

/// The WebSocket measurements: messages per second and CPU time per message of a variant
/// (``SocketVariant``) against the server in a child process (``SocketServer``).
enum SocketMessages {
    /// 64-byte messages: `receive` (the server pushes `count`), `echo` (`count` round trips, one
    /// after another), `duplex` (one task sends `count` while another reads their echoes).
    static func run(_ name: String, _ variant: String, count: Int) async throws -> [String: Double] {
        let server = try SocketServerProcess()
        defer { server.stop() }
        let text = String(repeating: "m", count: 64)
        return try await SocketVariant.withSocket(variant, port: server.port) { socket in
            // Warm up: a round trip and a short push.
            try await socket.send("push 1000 64 text")
            for _ in 0..<1000 { _ = try await socket.next() }
            let (start, cpu) = (now(), Requests.cpuSeconds())
            switch name {
            case "ws-receive":
                try await socket.send("push \(count) 64 text")
                try await read(count, from: socket)
            case "ws-echo":
                for _ in 0..<count {
                    try await socket.send(text)
                    guard try await socket.next() == 64 else { throw BenchFailure("wrong echo") }
                }
            case "ws-duplex":
                async let sent: Void = { for _ in 0..<count { try await socket.send(text) } }()
                try await read(count, from: socket)
                try await sent
            default: throw BenchFailure("unknown measurement \(name)")
            }
            let seconds = now() - start
            return [
                "messages_per_second": Double(count) / seconds,
                "cpu_us_per_message": (Requests.cpuSeconds() - cpu) / Double(count) * 1e6,
            ]
        }
    }

    /// A slow reader: the server pushes `count` binary messages of 256 KiB as fast as the
    /// connection takes them; the reader waits 4 ms after each. The peak resident growth shows
    /// whether anything buffers what the reader has not asked for.
    static func slowReader(_ variant: String, count: Int) async throws -> [String: Double] {
        let server = try SocketServerProcess()
        defer { server.stop() }
        let size = 256 << 10
        return try await SocketVariant.withSocket(variant, port: server.port) { socket in
            let (start, before) = (now(), Memory.currentMiB)
            try await socket.send("push \(count) \(size) binary")
            for _ in 0..<count {
                guard try await socket.next() == size else { throw BenchFailure("wrong message") }
                try await Task.sleep(for: .milliseconds(4))
            }
            return [
                "seconds": now() - start,
                "peak_rss_growth_mib": Memory.peakMiB - before,
                "sent_mib": Double(count * size) / Double(1 << 20),
            ]
        }
    }

    private static func read(_ count: Int, from socket: any BenchSocket) async throws {
        for _ in 0..<count {
            guard try await socket.next() == 64 else { throw BenchFailure("wrong message") }
        }
    }
}
