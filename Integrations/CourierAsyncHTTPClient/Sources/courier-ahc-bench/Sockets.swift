import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A socket of the `ws:` benchmarks' server.
struct SocketTarget: TargetType {
    let baseURL: URL
    var path: String { "/" }
    var method: Courier.HTTPMethod { .get }
    var task: HTTPTask { .requestPlain }
    var headers: [String: String]? { nil }
}

/// What the WebSocket measurements do with an open socket, the same for each variant: send a
/// text, read the next message (its size; `nil` at the close).
protocol BenchSocket: Sendable {
    func send(_ text: String) async throws
    func next() async throws -> Int?
}

/// The variants: `courier` (`provider.webSocket` on `AsyncHTTPClientTransport`) and `raw` (the
/// hand-written floor of the same engine: SwiftNIO's typed client upgrader and an
/// `NIOAsyncChannel` of frames on the same event loops, as swift-websocket's `WSClient` is built,
/// masking what it sends, answering pings, and turning each message into a `String` or `Data` as
/// Courier hands it over).
enum SocketVariant {
    static func withSocket<Result: Sendable>(
        _ variant: String, port: Int, _ body: @Sendable (any BenchSocket) async throws -> Result
    ) async throws -> Result {
        switch variant {
        case "courier":
            let provider = Provider<SocketTarget>(transport: AsyncHTTPClientTransport())
            let socket = try await provider.webSocket(SocketTarget(baseURL: URL(string: "ws://127.0.0.1:\(port)")!))
            let result = try await body(CourierSocket(socket: socket))
            await socket.close()
            return result
        case "raw":
            let channel = try await RawSocket.connect(port: port)
            return try await channel.executeThenClose { inbound, outbound in
                try await body(RawSocket(inbound: inbound, outbound: outbound))
            }
        default: throw BenchFailure("unknown variant \(variant)")
        }
    }
}

/// Courier's socket.
struct CourierSocket: BenchSocket {
    let socket: WebSocket
    private let iterator: Iterator

    init(socket: WebSocket) {
        self.socket = socket
        iterator = Iterator(socket.messages.makeAsyncIterator())
    }

    func send(_ text: String) async throws {
        try await socket.send(.text(text))
    }

    func next() async throws -> Int? {
        try await iterator.next()?.size
    }

    /// The messages' iterator, read by one task at a time (the measurements' reader).
    private final class Iterator: @unchecked Sendable {
        private var base: WebSocketMessages.AsyncIterator

        init(_ base: WebSocketMessages.AsyncIterator) {
            self.base = base
        }

        func next() async throws -> WebSocketMessage? {
            try await base.next()
        }
    }
}

/// The hand-written SwiftNIO client.
struct RawSocket: BenchSocket {
    private let iterator: Iterator
    let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

    init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>)
    {
        iterator = Iterator(inbound.makeAsyncIterator())
        self.outbound = outbound
    }

    func send(_ text: String) async throws {
        try await outbound.write(
            WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text)))
    }

    func next() async throws -> Int? {
        while let frame = try await iterator.next() {
            switch frame.opcode {
            case .text: return String(buffer: frame.unmaskedData).utf8.count
            case .binary: return Data(frame.unmaskedData.readableBytesView).count
            case .ping:
                try await outbound.write(
                    WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
            case .connectionClose: return nil
            default: continue
            }
        }
        return nil
    }

    /// The upgraded connection: the GET, the 101, the frames' codecs.
    static func connect(port: Int) async throws -> NIOAsyncChannel<WebSocketFrame, WebSocketFrame> {
        let upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>?>(
                        maxFrameSize: 1 << 24
                    ) {
                        channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "127.0.0.1:\(port)")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration(
                        upgradeRequestHead: HTTPRequestHead(
                            version: .http1_1, method: .GET, uri: "/", headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(nil) })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        guard let channel = try await upgraded.get() else { throw BenchFailure("the server refused the upgrade") }
        return channel
    }

    /// The inbound frames' iterator, read by one task at a time (the measurements' reader).
    private final class Iterator: @unchecked Sendable {
        private var base: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator

        init(_ base: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator) {
            self.base = base
        }

        func next() async throws -> WebSocketFrame? {
            try await base.next()
        }
    }
}
