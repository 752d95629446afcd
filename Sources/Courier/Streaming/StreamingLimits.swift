import Foundation

/// The bounds of a streamed response: how long a line or an event may grow, how much of a slow
/// reader's backlog is kept, and how much of a rejected answer is read for its error. Past a
/// bound the stream ends with a ``StreamingError`` that names it, never with silent truncation.
///
/// Set once on the provider, and per call where one stream needs more:
/// ```swift
/// let provider = Provider<Streams>(options: ProviderOptions(streamingLimits: StreamingLimits(maximumEventLength: 64 << 20)))
/// var limits = provider.streamingLimits
/// limits.maximumBacklog = 1 << 30
/// let export = try await provider.stream(.export, limits: limits)
/// ```
///
/// | Limit | Default | Past it |
/// |---|---|---|
/// | ``maximumLineLength`` | 16 MiB | ``StreamingError/Code/lineTooLong`` |
/// | ``maximumEventLength`` | 16 MiB | ``StreamingError/Code/eventTooLarge`` |
/// | ``memoryBufferSize`` | 4 MiB | the backlog goes to an unlinked temporary file |
/// | ``maximumBacklog`` | 256 MiB | ``StreamingError/Code/backlogTooLarge`` |
/// | ``rejectedBodyPrefix`` | 64 KiB | the rest of a rejected answer is not read |
///
/// The line and event defaults hold the largest chunks real completion APIs send (a base64 image
/// in one event is a few MiB). The backlog applies only to an engine without backpressure
/// (URLSession): AsyncHTTPClient waits for the reader instead, and keeps nothing.
public struct StreamingLimits: Sendable, Hashable {
    /// The most bytes one line may have (a line of ``StreamedResponse/lines``, of
    /// ``StreamedResponse/decodedLines(as:using:)``, or of an event stream), without its line end.
    public var maximumLineLength: Int
    /// The most bytes an event's data may reach before its blank line dispatches it, counted as
    /// received (an invalid UTF-8 byte becomes U+FFFD, three bytes, in ``ServerSentEvent/data``).
    public var maximumEventLength: Int
    /// The most unread bytes a body keeps in memory for a reader slower than the network; beyond
    /// it, the backlog waits in a temporary file that is deleted whatever happens.
    public var memoryBufferSize: Int
    /// The most unread bytes a body keeps in memory and in its temporary file together, for an
    /// engine that cannot make the server wait (URLSession). Past it the transfer is cancelled,
    /// the connection closed, and the reader gets ``StreamingError/Code/backlogTooLarge`` once
    /// it has read what was kept.
    public var maximumBacklog: Int
    /// The most bytes of a rejected answer's body read for its error (the rest is not read, and
    /// the connection is closed).
    public var rejectedBodyPrefix: Int

    /// Creates limits; every one has a default.
    /// - Parameters:
    ///   - maximumLineLength: The longest line, in bytes; 16 MiB by default.
    ///   - maximumEventLength: The largest event data, in bytes; 16 MiB by default.
    ///   - memoryBufferSize: The unread bytes kept in memory; 4 MiB by default.
    ///   - maximumBacklog: The unread bytes kept in all; 256 MiB by default.
    ///   - rejectedBodyPrefix: The bytes of a rejected answer read for its error; 64 KiB by default.
    public init(
        maximumLineLength: Int = 16 << 20, maximumEventLength: Int = 16 << 20, memoryBufferSize: Int = 4 << 20,
        maximumBacklog: Int = 256 << 20, rejectedBodyPrefix: Int = 64 << 10
    ) {
        self.maximumLineLength = maximumLineLength
        self.maximumEventLength = maximumEventLength
        self.memoryBufferSize = memoryBufferSize
        self.maximumBacklog = maximumBacklog
        self.rejectedBodyPrefix = rejectedBodyPrefix
    }

    /// The defaults, as in the table above.
    public static let standard = StreamingLimits()
}
