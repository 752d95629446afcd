import Foundation

extension MultipartFormData {
    /// The encoded form as a body read as it is sent, with its length: for an engine that sends
    /// asynchronously, which then needs neither the whole form in memory nor a temporary copy of
    /// its files. Files and stream parts are read a chunk at a time, off the Swift concurrency
    /// threads; a stream part that gives another number of bytes than it declared fails with
    /// ``TransferError/streamLengthMismatch(part:expected:actual:)``.
    /// ```swift
    /// let body = try form.uploadStream()
    /// for try await chunk in try body.chunks() { send(chunk) }
    /// ```
    /// - Returns: A replayable upload stream of the encoded form.
    /// - Throws: ``TransferError/fileNotReadable(_:)`` for a missing file part.
    public func uploadStream() throws(TransferError) -> UploadStream {
        let length = try contentLength()
        let form = self
        return UploadStream(length: length) { FormChunks(form: form) }
    }
}

/// The encoded chunks of a form: each part's header, its content, a line break, then the closing
/// boundary.
struct FormChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let form: MultipartFormData

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(form: form)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let form: MultipartFormData
        private var index = 0
        private var pending: [Data] = []
        private var content: UploadStream.Chunks.AsyncIterator?
        private var expected: (part: String, length: UInt64)?
        private var read: UInt64 = 0
        private var closed = false

        init(form: MultipartFormData) {
            self.form = form
        }

        mutating func next() async throws -> Data? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                if let chunk = try await nextContentChunk() { return chunk }
                guard index < form.parts.count else {
                    guard !closed else { return nil }
                    closed = true
                    return form.closingBoundary
                }
                try start(form.parts[index])
                index += 1
            }
        }

        /// Queues the part's header and in-memory content, or opens its file or stream.
        private mutating func start(_ part: MultipartFormData.Part) throws {
            pending.append(form.header(of: part))
            switch part.content {
            case .data(let data):
                pending.append(data)
                pending.append(Data("\r\n".utf8))
            case .file(let url):
                guard let stream = InputStream(url: url) else { throw TransferError.fileNotReadable(url) }
                content = UploadStream.Chunks(reading: stream).makeAsyncIterator()
                expected = nil
            case .stream(let makeStream, let length):
                guard let stream = try? makeStream() else { throw TransferError.streamFailed(part: part.name) }
                content = UploadStream.Chunks(reading: stream).makeAsyncIterator()
                (expected, read) = ((part.name, length), 0)
            }
        }

        /// The next chunk of an open file or stream part; its line break once it ends.
        private mutating func nextContentChunk() async throws -> Data? {
            guard var current = content else { return nil }
            let chunk = try await current.next()
            content = current
            guard let chunk else {
                content = nil
                if let expected, read != expected.length {
                    throw TransferError.streamLengthMismatch(
                        part: expected.part, expected: expected.length, actual: read)
                }
                return Data("\r\n".utf8)
            }
            read += UInt64(chunk.count)
            if let expected, read > expected.length {
                throw TransferError.streamLengthMismatch(part: expected.part, expected: expected.length, actual: read)
            }
            return chunk
        }
    }
}
