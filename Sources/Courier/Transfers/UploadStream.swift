import Foundation

/// A request body read from a stream, for bodies that are neither in memory nor in one file:
/// generated, piped, or read from another source as they are sent.
///
/// ```swift
/// let body = UploadStream(length: UInt64(report.count)) { InputStream(data: report) }
/// var task: HTTPTask { .uploadStream(body) }
/// ```
/// With a `length`, the body is sent with its `Content-Length` (on Linux, up to
/// `URLSessionTransport.linuxKnownLengthUploadLimit`; beyond it, chunked); without one, chunked.
/// A replayable stream makes a fresh stream for every send: retries, redirects and resends send
/// the body again. A stream that is not replayable is read at most once: a request that would send
/// it again fails with ``TransferError/streamNotReplayable`` instead.
public struct UploadStream: Sendable {
    /// The number of bytes the stream gives, or `nil` when it is not known in advance.
    public let length: UInt64?
    /// Whether ``makeStream()`` can be called more than once.
    public let isReplayable: Bool
    private let make: @Sendable () throws -> InputStream
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
        self.make = makeStream
    }

    /// A stream of the body, from its start.
    /// - Returns: The stream.
    /// - Throws: ``TransferError/streamNotReplayable`` the second time for a stream that is not
    ///   replayable, or what `makeStream` throws.
    public func makeStream() throws -> InputStream {
        if !isReplayable {
            let again = opened.withLock { opened in
                defer { opened = true }
                return opened
            }
            if again { throw TransferError.streamNotReplayable }
        }
        return try make()
    }

    /// Whether the body can be sent (again): always for a replayable stream, once otherwise.
    public var canBeSent: Bool {
        isReplayable || !opened.value
    }
}
