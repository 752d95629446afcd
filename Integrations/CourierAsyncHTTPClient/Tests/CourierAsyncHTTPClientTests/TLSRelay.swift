import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A TLS front for a plain HTTP server on 127.0.0.1: it accepts TLS connections (certified by a
/// test authority) and relays their bytes both ways, unchanged, to the server's port; each side's
/// closing closes the other. For running cases written against plain loopback servers over TLS.
final class TLSRelay: Sendable {
    let port: Int
    private let channel: any Channel

    init(to target: Int, authority: TestCertificateAuthority) throws {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(authority.serverCertificate.path).map {
                .certificate($0)
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: authority.serverKey.path, format: .pem)))
        let context = try NIOSSLContext(configuration: tls)
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelOption(.allowRemoteHalfClosure, value: true)
                    .connect(host: "127.0.0.1", port: target)
                    .flatMapThrowing { outbound in
                        let (front, back) = RelayHalf.pair()
                        try inbound.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                        try inbound.pipeline.syncOperations.addHandler(front)
                        try outbound.pipeline.syncOperations.addHandler(back)
                    }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    func stop() {
        try? channel.close().wait()
    }
}

/// One side of a relay: what it reads is written by its partner, with backpressure (a side reads
/// only while its partner can write).
private final class RelayHalf: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var partner: RelayHalf?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    static func pair() -> (RelayHalf, RelayHalf) {
        let (first, second) = (RelayHalf(), RelayHalf())
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner?.context?.write(data, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            partner?.context?.close(mode: .output, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.resumeRead() }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? true { context.read() } else { pendingRead = true }
    }

    private func resumeRead() {
        guard pendingRead else { return }
        pendingRead = false
        context?.read()
    }
}
