import Foundation

extension UploadStream {
    /// An upload body as an asynchronous sequence of byte chunks (see ``UploadStream/chunks()``).
    /// Iterate it once: its iterators share one reader.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = Data

        private let next: @Sendable () async throws -> Data?

        /// The chunks of an asynchronous sequence.
        init<Sequence: AsyncSequence & Sendable>(_ sequence: Sequence) where Sequence.Element: DataProtocol {
            let reader = SequenceReader(sequence.makeAsyncIterator())
            next = { try await reader.next() }
        }

        /// The chunks an `InputStream` gives, read on a Dispatch queue.
        init(reading stream: InputStream) {
            let reader = InputStreamReader(stream)
            next = { try await reader.next() }
        }

        /// Makes the iterator.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(nextChunk: next)
        }

        /// Gives the chunks one by one.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let nextChunk: @Sendable () async throws -> Data?

            /// The next chunk, or `nil` at the end of the body.
            /// - Throws: What the source throws, or ``TransferError/streamFailed(part:)`` when an
            ///   `InputStream` fails.
            public mutating func next() async throws -> Data? {
                try await nextChunk()
            }
        }
    }
}

/// The iterator of a user's sequence, kept for the one reader of a body.
// @unchecked Sendable: the iterator is used only by `Chunks`' single reader, one `next()` at a
// time (the contract of AsyncIteratorProtocol); it is never touched concurrently.
private final class SequenceReader<Iterator: AsyncIteratorProtocol>: @unchecked Sendable
where Iterator.Element: DataProtocol {
    private var iterator: Iterator

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> Data? {
        while let chunk = try await iterator.next() {
            // Empty chunks carry nothing; an engine would take them for the end.
            if !chunk.isEmpty { return Data(chunk) }
        }
        return nil
    }
}

/// An `InputStream` read a chunk at a time off the Swift concurrency threads, since its reads
/// block (a pipe, say).
// @unchecked Sendable: the stream is touched only inside `queue`, one read at a time.
private final class InputStreamReader: @unchecked Sendable {
    private let stream: InputStream
    private let queue = DispatchQueue(label: "courier.upload-stream")
    private var state = State.unopened

    private enum State { case unopened, open, closed }

    init(_ stream: InputStream) {
        self.stream = stream
    }

    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try self.read() }) }
        }
    }

    /// The next chunk; runs on `queue`.
    private func read() throws -> Data? {
        if state == .unopened {
            stream.open()
            state = .open
        }
        guard state == .open else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        let count = stream.read(&buffer, maxLength: buffer.count)
        guard count > 0 else {
            stream.close()
            state = .closed
            if count < 0 { throw TransferError.streamFailed(part: "body") }
            return nil
        }
        return Data(buffer[0..<count])
    }

    deinit {
        if state == .open { stream.close() }
    }
}
