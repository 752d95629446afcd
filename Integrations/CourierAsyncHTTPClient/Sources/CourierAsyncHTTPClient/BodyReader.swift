import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a streamed response body from AsyncHTTPClient when the consumer asks (its body
/// sequence has backpressure), within the exchange's deadline.
// @unchecked Sendable: `iterator` and `progress` are touched only by `next()`, which
// `TransportBody` calls for one reader, one call at a time.
final class BodyReader: @unchecked Sendable {
    private var iterator: HTTPClientResponse.Body.AsyncIterator?
    private var progress: DownloadProgress
    private let deadline: ExchangeDeadline

    init(
        _ body: HTTPClientResponse.Body, head: ResponseHead, progress: (@Sendable (TransferProgress) -> Void)?,
        deadline: ExchangeDeadline
    ) {
        iterator = body.makeAsyncIterator()
        self.progress = DownloadProgress(expected: head.expectedLength, report: progress)
        self.deadline = deadline
    }

    deinit {
        // A consumer that stops early releases the reader: the exchange is over.
        deadline.end()
    }

    /// The next chunk, or `nil` at the end.
    func next() async throws -> Data? {
        guard var current = iterator else { return nil }
        let buffer: ByteBuffer?
        do {
            if deadline.instant == nil {
                buffer = try await current.next()
            } else {
                let box = IteratorBox(current)
                buffer = try await deadline.run { try await box.next() }
                current = box.iterator
            }
        } catch {
            iterator = nil
            deadline.end()
            throw AsyncHTTPClientFailure.map(error, bodyCutShort: true)
        }
        guard let buffer else {
            iterator = nil
            deadline.end()
            return nil
        }
        iterator = current
        progress.add(buffer.readableBytes)
        return Data(buffer: buffer, byteTransferStrategy: .automatic)
    }
}

/// Carries an iterator into the task the deadline runs a read in, and back.
// @unchecked Sendable: the iterator moves to that task and back, never used by two at once
// (`DeadlineTimer.run` awaits the task before it returns, even when it cancels it).
private final class IteratorBox: @unchecked Sendable {
    var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> ByteBuffer? {
        try await iterator.next()
    }
}
