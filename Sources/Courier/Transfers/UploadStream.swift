import Foundation

/// A request body read from a stream, for bodies that are neither in memory nor in one file:
/// generated, piped, or read from another source as they are sent.
///
/// ```swift
/// let body = UploadStream(length: UInt64(report.count)) { InputStream(data: report) }
/// var task: HTTPTask { .uploadStream(body) }
/// ```
/// The source is an `InputStream` or an asynchronous sequence of byte chunks (an OpenAPI
/// `HTTPBody`, say): see ``init(length:replayable:makeChunks:)``. An engine reads either with
/// ``chunks()``.
///
/// With a `length`, the body is sent with its `Content-Length` (on Linux, up to
/// `URLSessionTransport.linuxKnownLengthUploadLimit`; beyond it, chunked); without one, chunked.
/// A replayable stream makes a fresh stream for every send: retries, redirects and resends send
/// the body again. A stream that is not replayable is read at most once: a request that would send
/// it again fails with ``TransferError/streamNotReplayable`` instead.
public struct UploadStream: Sendable {
    /// Where the bytes come from.
    private enum Source: Sendable {
        case inputStream(@Sendable () throws -> InputStream)
        case chunks(@Sendable () -> Chunks)
    }

    /// The number of bytes the stream gives, or `nil` when it is not known in advance.
    public let length: UInt64?
    /// Whether the body can be read more than once.
    public let isReplayable: Bool
    private let source: Source
    private let opened = Locked(false)

    /// Creates a body read from streams that `makeStream` makes.
    /// - Parameters:
    ///   - length: The exact number of bytes, or `nil` when unknown.
    ///   - replayable: Whether `makeStream` can make the stream again from the start; `true` by
    ///     default.
    ///   - makeStream: Makes the stream, once per send when replayable.
    public init(
        length: UInt64? = nil, replayable: Bool = true, makeStream: @escaping @Sendable () throws -> InputStream
    ) {
        self.length = length
        self.isReplayable = replayable
        self.source = .inputStream(makeStream)
    }

    /// Creates a body read from asynchronous sequences of byte chunks that `makeChunks` makes.
    ///
    /// ```swift
    /// let body = UploadStream(length: nil, replayable: false) { openAPIBody }
    /// ```
    /// `URLSessionTransport` cannot read such a body as it sends (URLSession reads bodies
    /// synchronously on its own queue), so it collects it first, into memory up to
    /// `URLSessionTransport.linuxKnownLengthUploadLimit` and into a temporary file beyond; an
    /// engine that sends asynchronously streams it.
    /// - Parameters:
    ///   - length: The exact number of bytes, or `nil` when unknown.
    ///   - replayable: Whether `makeChunks` can make the sequence again from the start; `true` by
    ///     default.
    ///   - makeChunks: Makes the sequence, once per send when replayable.
    public init<Sequence: AsyncSequence & Sendable>(
        length: UInt64? = nil, replayable: Bool = true, makeChunks: @escaping @Sendable () -> Sequence
    ) where Sequence.Element: DataProtocol {
        self.length = length
        self.isReplayable = replayable
        self.source = .chunks { Chunks(makeChunks()) }
    }

    /// Whether the body comes from an asynchronous sequence rather than an `InputStream`.
    public var isAsynchronous: Bool {
        if case .chunks = source { return true }
        return false
    }

    /// A stream of the body, from its start.
    /// - Returns: The stream.
    /// - Throws: ``TransferError/streamNotReplayable`` the second time for a stream that is not
    ///   replayable, ``TransferError/streamIsAsynchronous`` for a body of asynchronous chunks
    ///   (read it with ``chunks()``), or what `makeStream` throws.
    public func makeStream() throws -> InputStream {
        guard case .inputStream(let make) = source else { throw TransferError.streamIsAsynchronous }
        try claim()
        return try make()
    }

    /// The body as chunks of bytes, from its start, for an engine that sends asynchronously.
    /// Iterate it once; an `InputStream` source is read off the Swift concurrency threads.
    /// - Returns: The chunks.
    /// - Throws: ``TransferError/streamNotReplayable`` the second time for a stream that is not
    ///   replayable, or what `makeStream` throws.
    public func chunks() throws -> Chunks {
        try claim()
        switch source {
        case .inputStream(let make): return Chunks(reading: try make())
        case .chunks(let make): return make()
        }
    }

    /// What tells this stream (and its copies) from any other made apart: its one lock.
    var identity: ObjectIdentifier { ObjectIdentifier(opened) }

    /// Whether the body can be sent (again): always for a replayable stream, once otherwise.
    public var canBeSent: Bool {
        isReplayable || !opened.value
    }

    /// Records one read of a stream that is not replayable; throws on the second.
    private func claim() throws {
        guard !isReplayable else { return }
        let again = opened.withLock { opened in
            defer { opened = true }
            return opened
        }
        if again { throw TransferError.streamNotReplayable }
    }
}
