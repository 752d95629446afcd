import NIOCore
import NIOHTTP1

/// What one exchange on a pinned connection waits for, made before the exchange has a
/// connection: the handshake (done at once on a reused connection), the response head, the
/// body's source and sequence, and where the connection goes after.
struct ExchangeEnds: Sendable {
    let handshake: EventLoopPromise<Void>
    let head: EventLoopPromise<HTTPResponseHead>
    let source: ResponseReceiver.Body.Source
    let body: ResponseReceiver.Body
    let demand: Demand
    /// Takes the connection back once the exchange is over and both sides let it stay open.
    let release: @Sendable (PinnedConnections.Idle) -> Void

    init(on loop: any EventLoop, release: @escaping @Sendable (PinnedConnections.Idle) -> Void) {
        handshake = loop.makePromise()
        head = loop.makePromise()
        demand = Demand(on: loop)
        self.release = release
        // A few chunks read ahead at most: memory stays bounded whatever the consumer's pace.
        let made = ResponseReceiver.Body.makeSequence(
            backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false, delegate: demand)
        source = made.source
        body = made.sequence
    }

    /// Fails an exchange that never got a connection: its promises must not be left unanswered.
    func fail(_ error: any Error) {
        handshake.fail(error)
        head.fail(error)
        source.finish(error)
    }

    /// Ends the exchange at once with `error` (see ``ResponseReceiver/abort(_:)``).
    func abort(_ error: any Error) {
        let receiver = demand.receiver
        receiver.eventLoop.execute { receiver.value?.abort(error) }
    }
}

/// The body sequence's delegate: passes the consumer's demand to the receiver on its event loop,
/// while the exchange is the connection's current one.
final class Demand: NIOAsyncSequenceProducerDelegate {
    /// The receiver, while this exchange is its connection's.
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
