import Foundation

/// When an ``EventSource`` reconnects, and how often.
public struct EventReconnection: Sendable, Hashable {
    /// The delay before reconnecting until the server sends a `retry` field: 3 s, as browsers.
    public var delay: TimeInterval
    /// The most reconnections in a row without an event between them; one more ends the
    /// iteration with the last error (or normally, when the stream just ended).
    public var maximumAttempts: Int
    /// Whether a stream that ended normally is reconnected (an `EventSource` does); when `false`,
    /// only a broken stream is.
    public var reconnectsAfterEnd: Bool

    /// Creates a reconnection policy.
    /// - Parameters:
    ///   - delay: The delay before reconnecting, until the server sets one; 3 s by default.
    ///   - maximumAttempts: The most reconnections in a row without an event; 5 by default.
    ///   - reconnectsAfterEnd: Whether a stream that ended normally is reconnected; `true` by
    ///     default.
    public init(delay: TimeInterval = 3, maximumAttempts: Int = 5, reconnectsAfterEnd: Bool = true) {
        self.delay = delay
        self.maximumAttempts = maximumAttempts
        self.reconnectsAfterEnd = reconnectsAfterEnd
    }

    /// Never reconnect: one connection's events.
    public static let never = EventReconnection(delay: 0, maximumAttempts: 0, reconnectsAfterEnd: false)
}
