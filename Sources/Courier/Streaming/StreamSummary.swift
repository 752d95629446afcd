import Foundation

/// What a streamed response's body did, from its accepted head to its end: what
/// `PluginType.didFinishStream(_:target:)` receives, once per ``StreamedResponse``.
///
/// ```swift
/// func didFinishStream(_ summary: StreamSummary, target: any TargetType) {
///     print("\(summary.requestID): \(summary.bytes) bytes in \(summary.duration) s")
/// }
/// ```
public struct StreamSummary: Sendable {
    /// How a stream ended.
    ///
    /// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
    public enum Outcome: Sendable {
        /// The body ended, or an event stream's terminator arrived.
        case completed
        /// The reader stopped first: it ended its loop, dropped the response or was cancelled.
        case stopped
        /// The transfer failed after the head; the reader got this error.
        case failed(CourierError)
    }

    /// The request's identifier, as in the plugins' other hooks.
    public let requestID: RequestID
    /// The accepted head (the response `didReceive` and `process` saw).
    public let response: Response
    /// The body bytes handed to the reader.
    public let bytes: Int64
    /// The Server-Sent Events handed to the reader, or `nil` when the body was not read as events.
    public let events: Int?
    /// The time from the accepted head to the end, in seconds.
    public let duration: TimeInterval
    /// How the stream ended.
    public let outcome: Outcome
    /// Which connection of an ``EventSource`` this stream was: 1 for its first, 2 for the first
    /// reconnection, and so on (a failed connection attempt counts too); 1 for a plain stream.
    public let connection: Int

    /// Creates a summary.
    /// - Parameters:
    ///   - requestID: The request's identifier.
    ///   - response: The accepted head.
    ///   - bytes: The body bytes read.
    ///   - events: The events read, if the body was read as events.
    ///   - duration: The time from the head to the end, in seconds.
    ///   - outcome: How the stream ended.
    ///   - connection: Which connection of an event source it was; 1 by default.
    public init(
        requestID: RequestID, response: Response, bytes: Int64, events: Int?, duration: TimeInterval,
        outcome: Outcome, connection: Int = 1
    ) {
        self.requestID = requestID
        self.response = response
        self.bytes = bytes
        self.events = events
        self.duration = duration
        self.outcome = outcome
        self.connection = connection
    }
}
