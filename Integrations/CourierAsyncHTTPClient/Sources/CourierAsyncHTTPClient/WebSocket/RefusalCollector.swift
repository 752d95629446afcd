import Courier
import Foundation
import NIOCore
import NIOHTTP1

/// Reads a refused handshake's answer, head and body (up to a limit), on the event loop.
final class RefusalCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let limit: Int
    private let promise: EventLoopPromise<(HTTPResponseHead, ByteBuffer)>
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(limit: Int, eventLoop: any EventLoop) {
        self.limit = limit
        promise = eventLoop.makePromise()
    }

    /// The refusal's head and body, once its end was read.
    var result: EventLoopFuture<(HTTPResponseHead, ByteBuffer)> { promise.futureResult }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let responseHead): head = responseHead
        case .body(var part):
            guard body.readableBytes + part.readableBytes <= limit else {
                let problem = TransportFailure(
                    kind: .badServerResponse, underlyingError: URLError(.dataLengthExceedsMaximum))
                promise.fail(problem)
                context.close(promise: nil)
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard let head else {
                return promise.fail(
                    TransportFailure(kind: .badServerResponse, underlyingError: URLError(.badServerResponse)))
            }
            promise.succeed((head, body))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(TransportFailure(kind: .connectionLost, underlyingError: ChannelError.eof))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(AsyncHTTPClientFailure.map(error))
        context.close(promise: nil)
    }
}
