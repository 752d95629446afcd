import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The WebSocket benchmarks' server, run in a child process so that its CPU time is not the
/// client's: SwiftNIO's server upgrader on 127.0.0.1 and an ephemeral port. A text message
/// `push N SIZE binary|text` makes it send N messages of SIZE bytes as fast as the connection takes
/// them (it waits while the connection is not writable, so a slow reader holds it back); any other
/// message is echoed.
enum SocketServer {
    /// Serves until the process is killed, after printing `port N` on standard output.
    static func serve() throws -> Never {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24, automaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(PushingHandler())
                }
            })
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(
                    withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        FileHandle.standardOutput.write(Data("port \(channel.localAddress?.port ?? 0)\n".utf8))
        // Serves until its parent closes the pipe on its standard input (by exiting or being
        // killed): a server left behind would skew the next measurement.
        while !FileHandle.standardInput.availableData.isEmpty {}
        exit(0)
    }
}

/// One connection of the benchmarks' server: echoes, or pushes what `push` asks for.
final class PushingHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Messages still to push, their payload and opcode.
    private var remaining = 0
    private var payload = ByteBuffer()
    private var opcode = WebSocketOpcode.text

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            let channel = context.channel
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData))
            )
            .whenComplete { _ in channel.close(promise: nil) }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .text, .binary:
            let data = frame.unmaskedData
            let words = String(buffer: data).split(separator: " ")
            if frame.opcode == .text, words.count == 4, words[0] == "push",
                let count = Int(words[1]), let size = Int(words[2])
            {
                remaining = count
                opcode = words[3] == "binary" ? .binary : .text
                payload = ByteBuffer(repeating: UInt8(ascii: "a"), count: size)
                push(context: context)
            } else {
                context.writeAndFlush(
                    wrapOutboundOut(WebSocketFrame(fin: true, opcode: frame.opcode, data: data)), promise: nil)
            }
        default: break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        push(context: context)
    }

    /// Writes messages while the connection takes them.
    private func push(context: ChannelHandlerContext) {
        var wrote = false
        while remaining > 0, context.channel.isWritable {
            remaining -= 1
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: payload)), promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
    }
}

/// A child process running ``SocketServer``: started, asked for its port, and stopped when done by
/// closing its standard input, then by `SIGKILL` (a process started by Foundation's `Process`
/// inherits a blocked `SIGTERM`).
final class SocketServerProcess {
    let port: Int
    private let process: Process
    private let input = Pipe()

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["ws-serve", "-", "-"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw BenchFailure("the socket server exited before it printed its port") }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).last ?? "")
        else { throw BenchFailure("the socket server printed no port") }
        self.port = port
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
