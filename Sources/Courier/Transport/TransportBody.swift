import Foundation

/// The body of a response as it arrives: byte chunks in order, for a consumer that reads them
/// as they come instead of waiting for the whole body.
///
/// An engine makes one with ``makeStream(limits:)`` and feeds the ``Writer``; the consumer
/// iterates the body once. Memory and disk stay bounded whatever the consumer's pace: chunks the
/// consumer has not read yet are kept in memory up to ``StreamingLimits/memoryBufferSize`` bytes
/// and then in a temporary file (read back in order), so an engine without backpressure
/// (URLSession) never holds a slow consumer's backlog in memory; past
/// ``StreamingLimits/maximumBacklog`` the writer's ``Writer/onTermination`` is called (the engine
/// cancels the transfer) and the consumer, after the bytes kept, gets
/// ``StreamingError/Code/backlogTooLarge``. Ending the iteration early, or dropping the body, calls the
/// writer's ``Writer/onTermination``: the engine cancels the transfer there.
/// ```swift
/// let (body, writer) = TransportBody.makeStream()
/// writer.onTermination = { task.cancel() }
/// // engine: writer.write(chunk) … writer.finish() or writer.fail(error)
/// for try await chunk in body { consume(chunk) }
/// ```
public struct TransportBody: AsyncSequence, Sendable {
    /// A chunk of bytes.
    public typealias Element = Data

    /// The default memory limit: 4 MiB.
    public static let defaultMemoryLimit = 4 << 20

    private let consumer: BodyConsumer

    /// A body and the writer that feeds it, with no backlog limit.
    /// - Parameter memoryLimit: The most unread bytes kept in memory before they go to a
    ///   temporary file; 4 MiB by default.
    /// - Returns: The body, for the consumer, and its writer, for the engine.
    public static func makeStream(memoryLimit: Int = defaultMemoryLimit) -> (TransportBody, Writer) {
        let buffer = BodyBuffer(memoryLimit: Swift.max(1, memoryLimit))
        return (TransportBody(consumer: BodyConsumer(.buffer(buffer))), Writer(buffer))
    }

    /// A body and the writer that feeds it, within `limits`: unread bytes in memory up to
    /// ``StreamingLimits/memoryBufferSize``, then in a temporary file, up to
    /// ``StreamingLimits/maximumBacklog`` in all.
    /// ```swift
    /// let (body, writer) = TransportBody.makeStream(limits: request.streamingLimits)
    /// ```
    /// - Parameter limits: The limits, usually the request's ``TransportRequest/streamingLimits``.
    /// - Returns: The body, for the consumer, and its writer, for the engine.
    public static func makeStream(limits: StreamingLimits) -> (TransportBody, Writer) {
        let buffer = BodyBuffer(
            memoryLimit: Swift.max(1, limits.memoryBufferSize), backlogLimit: Swift.max(1, limits.maximumBacklog))
        return (TransportBody(consumer: BodyConsumer(.buffer(buffer))), Writer(buffer))
    }

    /// A body read from an engine with backpressure: each chunk is asked of `next` only when the
    /// consumer reads, so a slow consumer slows the transfer and nothing is buffered.
    /// ```swift
    /// let body = TransportBody(pulling: { try await source.next() }, onTermination: { request.cancel() })
    /// ```
    /// - Parameters:
    ///   - next: Gives the next chunk, or `nil` at the end; called by one reader at a time.
    ///   - onTermination: Called once when the consumer stops before the end (it ended its
    ///     iteration, dropped the body, or its task was cancelled): cancel the transfer there.
    public init(
        pulling next: @escaping @Sendable () async throws -> Data?, onTermination: @escaping @Sendable () -> Void
    ) {
        consumer = BodyConsumer(.pull(BodyPull(next: next, onTermination: onTermination)))
    }

    /// A body that is `data`, whole: what a streamed request gets from a transport that only
    /// returns whole bodies.
    /// - Parameter data: The bytes.
    public init(_ data: Data) {
        let (body, writer) = Self.makeStream(memoryLimit: Swift.max(1, data.count))
        if !data.isEmpty { writer.write(data) }
        writer.finish()
        self = body
    }

    private init(consumer: BodyConsumer) {
        self.consumer = consumer
    }

    /// The most unread bytes this body has held in memory at once so far (beyond its memory
    /// limit, a backlog goes to a temporary file): how a test or a benchmark sees that a slow
    /// consumer does not make the body grow in memory.
    public var peakMemoryBytes: Int { consumer.peakMemoryBytes }

    /// The most unread bytes this body has held at once so far, in memory and in its temporary
    /// file together: what ``StreamingLimits/maximumBacklog`` bounds.
    public var peakBacklogBytes: Int { consumer.peakBacklogBytes }

    /// Reads the chunks in order.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(iteration: BodyIteration(consumer))
    }

    /// All the chunks, joined; fails with ``TransportBodyError/tooLarge(limit:)`` past `limit`.
    /// - Parameter limit: The most bytes to collect.
    /// - Returns: The body.
    public func collect(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else { throw TransportBodyError.tooLarge(limit: limit) }
            data.append(chunk)
        }
        return data
    }

    /// The chunks up to `limit` bytes, joined, each waited for within `timeouts`; the rest of the
    /// body is left unread (dropping the body then ends the transfer).
    func prefix(upTo limit: Int, within timeouts: StreamTimeouts) async throws -> Data {
        var data = Data()
        let iteration = BodyIteration(consumer)
        while data.count < limit, let chunk = try await timeouts.bound({ try await iteration.next() }) {
            data.append(chunk.prefix(limit - data.count))
        }
        return data
    }

    /// Reads a ``TransportBody``'s chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let iteration: BodyIteration

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: The engine's error, or `CancellationError` when the reading task is cancelled.
        public mutating func next() async throws -> Data? {
            try await iteration.next()
        }
    }

    /// Feeds a ``TransportBody``: the engine's side.
    public final class Writer: Sendable {
        private let buffer: BodyBuffer

        init(_ buffer: BodyBuffer) {
            self.buffer = buffer
        }

        /// Called once when the consumer stops reading before the end (it ended its iteration,
        /// dropped the body, or its task was cancelled): cancel the transfer there.
        public var onTermination: (@Sendable () -> Void)? {
            get { buffer.onTermination }
            set { buffer.onTermination = newValue }
        }

        /// Whether writing more is useless: the consumer stopped reading, or its backlog passed
        /// its limit.
        public var isTerminated: Bool { buffer.isTerminated }

        /// Appends a chunk; ignored after ``finish()``, ``fail(_:)`` or termination.
        /// - Parameter data: The bytes.
        public func write(_ data: Data) {
            buffer.write(data)
        }

        /// Ends the body.
        public func finish() {
            buffer.end(with: nil)
        }

        /// Ends the body with `error`, which the consumer's next read throws.
        /// - Parameter error: Why the body ended.
        public func fail(_ error: any Error) {
            buffer.end(with: error)
        }
    }
}

/// Why reading a ``TransportBody`` failed.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum TransportBodyError: Error, Sendable, Equatable {
    /// The body was longer than the limit given to ``TransportBody/collect(upTo:)``.
    case tooLarge(limit: Int)
    /// A chunk could not be kept in, or read back from, the temporary file.
    case bufferFileFailed
}
