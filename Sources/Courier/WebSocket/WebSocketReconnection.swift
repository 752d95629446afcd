import Foundation

/// When an open ``WebSocket`` whose connection was lost opens again, and what it does then: off
/// by default (``WebSocketOptions/reconnection`` is `nil`), as an ``EventSource``'s is on only when
/// asked.
///
/// ```swift
/// var options = WebSocketOptions()
/// options.reconnection = WebSocketReconnection(maximumAttempts: 20) { socket in
///     try await socket.send(.text(#"{"subscribe":"prices"}"#))
/// }
/// ```
/// What reconnects: a connection lost without a close frame, a missed heartbeat, and a close from
/// the server that says "come back" (1001 going away, 1006, 1011, 1012 service restart, 1013 try
/// again later, 1014). What never does: a close with 1000 from either side, any close this side
/// makes, another code from the server (1008 policy violation, 4000–4999), a broken limit
/// (1007, 1009) or protocol (1002).
///
/// Each reconnection is a new opening handshake through the whole pipeline (plugins, a fresh
/// token from the interceptor, cookies, the resilience policy), after a wait with jitter that
/// grows with each failure in a row (as ``EventReconnection``'s), or a refusal's `Retry-After`
/// when longer. A refusal that is not worth another try (a 403, a 404, a 401 the interceptor
/// could not fix) ends the socket with its error, as does the last failure once
/// ``maximumAttempts`` reconnections in a row failed.
///
/// Reconnection happens as ``WebSocket/messages`` is read. Messages sent while it runs wait for
/// it (up to ``WebSocketOptions/sendBufferLimit`` at once; more fail at once) and go out after
/// ``onReconnect`` ran, on the new connection; a message whose send failed with the lost
/// connection is not sent again (it may have arrived).
public struct WebSocketReconnection: Sendable {
    /// The wait before the first reconnection: 1 s by default.
    public var delay: TimeInterval
    /// The most reconnections in a row that fail; one more failure ends the socket with it.
    public var maximumAttempts: Int
    /// The most the growing bound of the wait reaches (a longer `Retry-After` is still honoured).
    public var maximumDelay: TimeInterval
    /// The longest `Retry-After` honoured; a refusal that asks for longer ends the socket.
    public var maximumRetryAfter: TimeInterval
    /// Runs on each new connection before waiting messages go out: resubscribe here. Its sends
    /// go out at once; an error it throws ends the socket.
    public var onReconnect: (@Sendable (WebSocket) async throws -> Void)?

    /// Creates a reconnection policy.
    /// - Parameters:
    ///   - delay: The first wait; 1 s by default.
    ///   - maximumAttempts: The most failed reconnections in a row; 10 by default.
    ///   - maximumDelay: The most the bound of the wait grows to; 30 s by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured; 60 s by default.
    ///   - onReconnect: What to do on each new connection first; nothing by default.
    public init(
        delay: TimeInterval = 1, maximumAttempts: Int = 10, maximumDelay: TimeInterval = 30,
        maximumRetryAfter: TimeInterval = RetryPolicy.defaultMaximumRetryAfter,
        onReconnect: (@Sendable (WebSocket) async throws -> Void)? = nil
    ) {
        self.delay = delay
        self.maximumAttempts = maximumAttempts
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.onReconnect = onReconnect
    }

    /// The close codes from a server after which a socket reconnects.
    static let reconnectingCodes: Set<UInt16> = [1001, 1006, 1011, 1012, 1013, 1014]

    /// The wait before reconnection `attempt` (1 for the first after a working connection),
    /// with `retryAfter` from a refusal: the same bounds and jitter as ``EventReconnection``.
    func wait(beforeAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        EventReconnection(delay: delay, minimumDelay: 0, maximumDelay: maximumDelay)
            .delay(
                beforeAttempt: attempt, reconnectionTime: nil, retryAfter: retryAfter,
                random: Double.random(in: 0...1))
    }

    /// Whether a failed reconnection may be tried again, and the `Retry-After` it asked for;
    /// `nil` when it ends the socket.
    func classify(_ failure: CourierError) -> (retry: Bool, retryAfter: TimeInterval?) {
        switch failure {
        case .transport(let error, _):
            let kind = (error as? TransportFailure)?.kind
            return (kind != .badURL && kind != .tooManyRedirects, nil)
        case .statusCode(let response):
            let status = response.statusCode
            guard status == 408 || status == 429 || (500...599).contains(status) else { return (false, nil) }
            let asked = response.headerFields["Retry-After"].flatMap { RetryAfter.delay($0, now: Date()) }
            if let asked, asked > maximumRetryAfter { return (false, nil) }
            return (true, asked)
        default:
            return (false, nil)
        }
    }
}
