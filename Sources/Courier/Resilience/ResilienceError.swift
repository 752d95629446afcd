import Foundation

/// Why a ``ResiliencePolicy`` refused an attempt without sending it: the underlying error of a
/// ``CourierError/transport(_:request:)``.
///
/// ```swift
/// do {
///     _ = try await provider.request(.zen)
/// } catch .transport(let refusal as ResilienceError, _) {
///     if case .circuitOpen(let retryAfter) = refusal { print("offline; trying again in \(retryAfter) s") }
/// } catch {
///     print(error)
/// }
/// ```
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum ResilienceError: Error, Sendable, Hashable {
    /// The scope's circuit breaker is open (or half-open with its probes in flight); it lets a
    /// probe through in `retryAfter` seconds (0: as soon as a probe answers).
    case circuitOpen(retryAfter: TimeInterval)
    /// Every place of the concurrency limit was taken and its queue was full.
    case queueFull
    /// The attempt waited this many seconds for a place of the concurrency limit, its queue timeout.
    case queueTimedOut(after: TimeInterval)
    /// The rate limit has no token for `retryAfter` seconds, longer than the attempt may wait.
    case rateLimited(retryAfter: TimeInterval)
    /// The server asked the scope to hold back for `retryAfter` more seconds, longer than the
    /// attempt may wait.
    case backingOff(retryAfter: TimeInterval)
    /// The server said its rate limit is spent until `until` (`x-ratelimit-reset`, the IETF
    /// `RateLimit` fields, or a `Retry-After` on a `429` or `403`), further away than the
    /// attempt may wait: nothing is sent before then (see ``ServerBackOff``).
    case rateLimitExhausted(until: Date)
}

extension ResilienceError: LocalizedError {
    /// What happened, and when to try again.
    public var errorDescription: String? {
        switch self {
        case .circuitOpen(let seconds):
            seconds > 0
                ? "The circuit breaker is open after repeated failures; it tries again in \(Self.format(seconds))."
                : "The circuit breaker is testing the service with a probe request; try again shortly."
        case .queueFull:
            "Too many requests are in flight and the queue is full; the request was not sent."
        case .queueTimedOut(let seconds):
            "The request waited \(Self.format(seconds)) for a place among the requests in flight and was not sent."
        case .rateLimited(let seconds):
            "The rate limit allows the next request in \(Self.format(seconds)); the request was not sent."
        case .backingOff(let seconds):
            "The server asked clients to wait \(Self.format(seconds)) more (Retry-After); the request was not sent."
        case .rateLimitExhausted(let date):
            "The server's rate limit is spent until \(Self.format(date)); the request was not sent."
        }
    }

    /// An instant as ISO 8601 in UTC, with how far away it is.
    private static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date) + " (in \(format(max(0, date.timeIntervalSinceNow))))"
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.1f s", seconds)
    }
}

/// Why a retry the retrier asked for was not made, as ``AttemptMetrics/retryRefusal`` records it:
/// an open set, which later versions extend (compare with `==`).
public struct RetryRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The refusal's name, such as `retryBudget`.
    public let description: String

    init(_ name: String) {
        description = name
    }

    /// The scope's ``RetryBudget`` was spent: retries made up too large a share of its requests.
    public static let retryBudget = RetryRefusal("retryBudget")
    /// The request's total timeout would end before, or too soon after, the retry started.
    public static let deadline = RetryRefusal("deadline")
}
