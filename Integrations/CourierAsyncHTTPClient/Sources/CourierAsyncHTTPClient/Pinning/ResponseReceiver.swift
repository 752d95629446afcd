import Courier
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOTLS

/// The last handler of a pinned connection: completes the handshake's and the response head's
/// promises and hands the body to the consumer as it reads it (a slow consumer stops the reads
/// from the socket; one that stops reading closes the connection). Lives on its channel's event
/// loop.
final class ResponseReceiver: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// The body as the consumer reads it.
    typealias Body = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Demand
    >

    private let ends: ExchangeEnds
    private var context: ChannelHandlerContext?
    /// Whether the consumer wants more: reads from the socket wait while it does not.
    private var producing = true
    private var readPending = false
    private var ended = false

    init(_ ends: ExchangeEnds) {
        self.ends = ends
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event { ends.handshake.succeed(()) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // An interim answer (100 Continue, 103 Early Hints) is not the response.
            if (100..<200).contains(head.status.code), head.status.code != 101 { return }
            ends.head.succeed(head)
        case .body(let bytes):
            if ends.source.yield(bytes) == .stopProducing { producing = false }
        case .end:
            ended = true
            ends.source.finish()
            // Connections to pinned hosts are not reused: each exchange verifies its own.
            context.close(promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        if producing { context.read() } else { readPending = true }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
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
        if !ended { context?.close(promise: nil) }
    }

    /// Ends the exchange now with `error` (its task was cancelled, or it failed on the caller's
    /// side), without waiting for the connection's TLS closure.
    func abort(_ error: any Error) {
        fail(error)
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

/// What one exchange on a pinned connection waits for, made before the connection: the
/// handshake, the response head, and the body's source and sequence.
struct ExchangeEnds: Sendable {
    let handshake: EventLoopPromise<Void>
    let head: EventLoopPromise<HTTPResponseHead>
    let source: ResponseReceiver.Body.Source
    let body: ResponseReceiver.Body
    let demand: Demand

    /// Ends the exchange at once with `error` (see ``ResponseReceiver/abort(_:)``).
    func abort(_ error: any Error) {
        let receiver = demand.receiver
        receiver.eventLoop.execute { receiver.value?.abort(error) }
    }

    init(on loop: any EventLoop) {
        handshake = loop.makePromise()
        head = loop.makePromise()
        demand = Demand(on: loop)
        // A few chunks read ahead at most: memory stays bounded whatever the consumer's pace.
        let made = ResponseReceiver.Body.makeSequence(
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false, delegate: demand)
        source = made.source
        body = made.sequence
    }
}

/// The body sequence's delegate: passes the consumer's demand to the receiver on its event loop.
final class Demand: NIOAsyncSequenceProducerDelegate {
    /// The receiver, once the connection's pipeline is made.
    let receiver: NIOLoopBoundBox<ResponseReceiver?>

    init(on loop: any EventLoop) {
        receiver = .makeEmptyBox(valueType: ResponseReceiver.self, eventLoop: loop)
    }

    func produceMore() {
        receiver.eventLoop.execute { self.receiver.value?.produceMore() }
    }

    func didTerminate() {
        receiver.eventLoop.execute { self.receiver.value?.consumerStopped() }
    }
}
