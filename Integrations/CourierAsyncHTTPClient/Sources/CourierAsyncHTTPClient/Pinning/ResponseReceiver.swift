import Courier
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// The last handler of a pinned connection: completes the handshake's and the response head's
/// promises and hands the body to the consumer as it reads it (a slow consumer stops the reads
/// from the socket; one that stops reading early closes the connection). After a whole exchange
/// that both sides let stay open, it hands the connection back to its pool for the next one.
/// Lives on its channel's event loop.
final class ResponseReceiver: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The body as the consumer reads it.
    typealias Body = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Demand
    >

    /// How long an idle connection is kept open (AsyncHTTPClient's default).
    private static let idleTimeout = TimeAmount.seconds(60)

    /// The receiver, as the pool reaches it.
    private let home: NIOLoopBoundBox<ResponseReceiver?>
    private var ends: ExchangeEnds
    private var context: ChannelHandlerContext?
    /// Whether the consumer wants more: reads from the socket wait while it does not.
    private var producing = true
    private var readPending = false
    private var ended = false
    private var requestEnded = false
    private var keepAlive = false
    private var idleClose: Scheduled<Void>?

    init(_ ends: ExchangeEnds, home: NIOLoopBoundBox<ResponseReceiver?>) {
        self.ends = ends
        self.home = home
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Takes `next` as the connection's next exchange (its handshake done long ago).
    /// - Returns: `false` when the connection has closed meanwhile.
    func begin(_ next: ExchangeEnds) -> Bool {
        guard let context, context.channel.isActive, ended else { return false }
        idleClose?.cancel()
        idleClose = nil
        (ends, ended, requestEnded, keepAlive, producing) = (next, false, false, false, true)
        next.demand.receiver.value = self
        next.handshake.succeed(())
        return true
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { ends.handshake.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head): keepAlive = head.isKeepAlive
        case .body: break
        case .end: requestEnded = true
        }
        context.write(data, promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // An interim answer (100 Continue, 103 Early Hints) is not the response.
            if (100..<200).contains(head.status.code), head.status.code != 101 { return }
            keepAlive = keepAlive && head.isKeepAlive
            ends.head.succeed(head)
        case .body(let bytes):
            if ends.source.yield(bytes) == .stopProducing { producing = false }
        case .end:
            ended = true
            let finished = ends
            // The consumer of this body may still stop reading: that must not close the
            // connection's next exchange.
            finished.demand.receiver.value = nil
            producing = true
            if readPending {
                readPending = false
                context.read()
            }
            // Kept before the consumer learns the body is over, so that its next request finds
            // the connection.
            rest(context)
            finished.source.finish()
        }
    }

    /// Hands a connection whose exchange is over to its pool, or closes it.
    private func rest(_ context: ChannelHandlerContext) {
        guard keepAlive, requestEnded, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        idleClose = context.eventLoop.scheduleTask(in: Self.idleTimeout) { channel.close(promise: nil) }
        ends.release(PinnedConnections.Idle(channel: context.channel, receiver: home))
    }

    func read(context: ChannelHandlerContext) {
        if producing { context.read() } else { readPending = true }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleClose?.cancel()
        fail(TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof))
        context.fireChannelInactive()
    }

    /// The consumer wants more of the body.
    func produceMore() {
        producing = true
        guard readPending else { return }
        readPending = false
        context?.read()
    }

    /// The consumer stopped reading: an unfinished body is not read further.
    func consumerStopped() {
        if !ended { closeNow() }
    }

    /// Ends the exchange now with `error` (its task was cancelled, or it failed on the caller's
    /// side), without waiting for the connection's TLS closure.
    func abort(_ error: any Error) {
        fail(error)
        closeNow()
    }

    /// Closes the connection. Reads go on meanwhile: TLS's closing waits for the server's
    /// `close_notify`, which a connection held back for a slow reader would never read (the
    /// close then took SwiftNIO SSL's whole 5 s shutdown timeout).
    private func closeNow() {
        producing = true
        if readPending {
            readPending = false
            context?.read()
        }
        context?.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        ends.handshake.fail(error)
        ends.head.fail(error)
        guard !ended else { return }
        ended = true
        ends.source.finish(error)
    }
}
