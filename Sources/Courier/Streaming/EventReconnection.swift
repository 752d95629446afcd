import Foundation

/// When an ``EventSource`` reconnects, how long it waits, and when it gives up.
///
/// Every failure to connect or to read counts, not only a stream that ended: a refused or reset
/// connection, a timeout, a connection closed before or during the head or the body, and a head
/// with status 408, 429 or 5xx (a browser's `EventSource` gives up on those; a feed client should
/// not). What ends the source for good:
///
/// | What happens | The source |
/// |---|---|
/// | the answer is 204 No Content | ends normally |
/// | the terminator event arrives | ends normally |
/// | the stream ends, with ``reconnectsAfterEnd`` off | ends normally |
/// | another status than 200, once the interceptor had its chance (a 401 refreshes first) | throws ``CourierError/statusCode(_:)`` |
/// | a `Content-Type` other than `text/event-stream` | throws ``StreamingError/Code/notAnEventStream`` |
/// | a line or an event past its ``StreamingLimits`` | throws that ``StreamingError`` |
/// | a `Retry-After` longer than ``maximumRetryAfter`` | throws the 429 or 503 |
/// | the iteration stops, or its task is cancelled | ends (a cancelled task throws ``CourierError/cancelled``) |
/// | ``maximumAttempts`` reconnections in a row without an event | throws ``StreamingError/Code/reconnectionsExhausted``, with the last failure |
/// | the first connection fails, with ``retriesFirstConnection`` off | throws its error |
/// | the request is not idempotent (`POST`, `PATCH`), with ``reconnectsNonIdempotentRequests`` off | ends as its one connection did: normally, or with its error |
///
/// A request that is not idempotent is never sent again by default: resending a `POST` runs it
/// again (a chat completion answered twice, tokens repeated). Read such a stream once, as
/// `provider.stream(.chat(prompt)).events(until: .data("[DONE]"))` does, or turn
/// ``reconnectsNonIdempotentRequests`` on for a server that resumes after `Last-Event-ID`.
///
/// The wait before a reconnection starts at the reconnection time: the server's last `retry`
/// field, else ``delay``, and never less than ``minimumDelay`` (so that a server sending
/// `retry: 0` cannot make its clients spin), or a `Retry-After` when a 429 or 503 asks for
/// longer. It is a random pick between that time and a bound, so that clients cut off together
/// do not come back together: the bound is 1.5 times the reconnection time for the first
/// reconnection, doubles with each failure in a row up to ``maximumDelay``, and falls back after
/// an event. With the defaults, a source outlives an outage of at least 30 seconds, and about two
/// minutes on average.
///
/// ```swift
/// let feed = provider.events(.feed, reconnection: EventReconnection(maximumAttempts: .max))
/// ```
public struct EventReconnection: Sendable, Hashable {
    /// The reconnection time until the server sends a `retry` field: 3 s, as browsers.
    public var delay: TimeInterval
    /// The most reconnections in a row without an event between them; one more failure ends the
    /// iteration with ``StreamingError/Code/reconnectionsExhausted`` (or normally, when the stream
    /// just ended).
    public var maximumAttempts: Int
    /// Whether a stream that ended normally is reconnected (an `EventSource` does); when `false`,
    /// only a failure is.
    public var reconnectsAfterEnd: Bool
    /// Whether a failure of the very first connection is retried like a reconnection (as a
    /// browser does); when `false`, it is thrown at once.
    public var retriesFirstConnection: Bool
    /// The shortest reconnection time, whatever the server's `retry` says.
    public var minimumDelay: TimeInterval
    /// The most the growing bound of the wait reaches after failures in a row (a longer `retry`
    /// or `Retry-After` from the server is still honoured).
    public var maximumDelay: TimeInterval
    /// The longest `Retry-After` honoured; a server that asks for longer ends the source with its
    /// answer.
    public var maximumRetryAfter: TimeInterval
    /// Whether a request whose method is not idempotent (`POST`, `PATCH`, …) is sent again; off
    /// by default, so that nothing is run twice.
    public var reconnectsNonIdempotentRequests = false

    /// Creates a reconnection policy.
    /// - Parameters:
    ///   - delay: The reconnection time until the server sets one; 3 s by default.
    ///   - maximumAttempts: The most reconnections in a row without an event; 10 by default.
    ///   - reconnectsAfterEnd: Whether a stream that ended normally is reconnected; `true` by
    ///     default.
    ///   - retriesFirstConnection: Whether a failed first connection is retried; `true` by default.
    ///   - minimumDelay: The shortest reconnection time; 1 s by default.
    ///   - maximumDelay: The most the bound of the wait grows to; 30 s by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured; 60 s by default.
    public init(
        delay: TimeInterval = 3, maximumAttempts: Int = 10, reconnectsAfterEnd: Bool = true,
        retriesFirstConnection: Bool = true, minimumDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30,
        maximumRetryAfter: TimeInterval = RetryPolicy.defaultMaximumRetryAfter
    ) {
        self.delay = delay
        self.maximumAttempts = maximumAttempts
        self.reconnectsAfterEnd = reconnectsAfterEnd
        self.retriesFirstConnection = retriesFirstConnection
        self.minimumDelay = minimumDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Never reconnect: one connection's events, and its error.
    public static let never = EventReconnection(
        delay: 0, maximumAttempts: 0, reconnectsAfterEnd: false, retriesFirstConnection: false)

    /// The wait before reconnection `attempt`: a pure function of its inputs.
    /// - Parameters:
    ///   - attempt: The reconnection's number in the current run of failures: 1 after an event.
    ///   - reconnectionTime: The server's last `retry`, in seconds, if it sent one.
    ///   - retryAfter: The `Retry-After` of a 429 or 503, in seconds, if there was one.
    ///   - random: A number in `0...1` that picks the wait between its bounds.
    /// - Returns: The wait, in seconds.
    public func delay(
        beforeAttempt attempt: Int, reconnectionTime: TimeInterval?, retryAfter: TimeInterval?, random: Double
    ) -> TimeInterval {
        let time = Swift.max(minimumDelay, reconnectionTime ?? delay, 0)
        let lower = Swift.max(time, retryAfter ?? 0)
        let growth = time * 1.5 * pow(2, Double(Swift.min(Swift.max(0, attempt - 1), 60)))
        let upper = Swift.max(lower, Swift.min(maximumDelay, growth))
        return lower + (upper - lower) * Swift.min(Swift.max(random, 0), 1)
    }
}
