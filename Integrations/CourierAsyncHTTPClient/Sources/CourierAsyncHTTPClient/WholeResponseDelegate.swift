import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

/// A response read whole into memory by AsyncHTTPClient's delegate API: the head and every body
/// part appended on the connection's event loop as they arrive, the caller resumed once, when
/// the response is complete. The async API hands the head to the caller and then each body part
/// through an `AsyncSequence`, a trip through the concurrency pool each; here a small answer costs
/// one (Benchmarks/README, "A real request at the engine's own cost").
///
/// `@unchecked Sendable`: AsyncHTTPClient calls a delegate's methods one at a time on the task's
/// event loop, so `head`, `body`, `sends` and `answered` are written there only; the caller reads
/// them only after the task's future completed (after the last call), through the continuation
/// that the completion resumes, which orders those writes before the reads.
final class WholeResponseDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    /// The head and the whole body.
    struct Answer: Sendable {
        let head: HTTPResponseHead
        let body: Data
    }

    private var head: HTTPResponseHead?
    private var body = Data()
    /// How many times a request head went out: more than once when the client followed a redirect.
    private var sends = 0

    /// Whether a response head arrived: a failure before it left the request unanswered.
    var answered: Bool { head != nil }

    func didSendRequestHead(task: HTTPClient.Task<Answer>, _ head: HTTPRequestHead) {
        sends += 1
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        // Reserved up to 64 MiB from the announced length; a lying length cannot reserve more.
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > 0, length < 64 << 20 {
            body.reserveCapacity(length)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        guard sends <= 1 else { throw AsyncHTTPClientTransportError.clientFollowedRedirect }
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return Answer(head: head, body: body)
    }
}
