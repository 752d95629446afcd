import Foundation

/// Hedged requests: when an idempotent exchange has not answered after a delay, another copy is
/// sent; the first to succeed wins and the others are cancelled.
///
/// Only a safe request is hedged by default: `GET`, `HEAD` or `OPTIONS` (``methods``). Two copies
/// of a `DELETE` or a `PUT` that both reach the server are two actions, and the slower copy's
/// answer (a `404` for a `DELETE` the first copy did) could be the one reported; a target that
/// wants them hedged says so in its own policy (`Hedging(delay:methods:)` with `.put`), and
/// even then the request must be one that may be sent twice (idempotent, or with an
/// ``TargetType/idempotency`` key) with a body that can be sent again (none, or its own
/// bytes). Never a download, a stream upload or a streamed response. Each hedge draws on
/// the scope's ``RetryBudget`` when the policy has one, and passes the limits and the breaker
/// like any exchange. A hedge is part of its attempt: the hooks see one attempt, and
/// ``ResilienceRecord/hedges`` says how many copies were sent and which one answered.
/// ```swift
/// let policy = ResiliencePolicy(hedging: Hedging(delay: .percentile(0.95, atLeast: 0.05)))
/// ```
public struct Hedging: Sendable, Hashable {
    /// When the next copy starts.
    ///
    /// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
    public enum Delay: Sendable, Hashable {
        /// After this many seconds.
        case fixed(TimeInterval)
        /// After the scope's recent latency at this percentile (`0.95` for p95), or `atLeast`
        /// seconds when that is longer; `atLeast` alone until 20 latencies are known.
        case percentile(Double, atLeast: TimeInterval)
    }

    /// When the next copy starts.
    public var delay: Delay
    /// The most copies sent besides the first; `1` by default (at most 10).
    public var maximumHedges: Int
    /// The methods whose requests are hedged: ``safeMethods`` by default. Add an idempotent
    /// unsafe method (`.put`, `.delete`) only where sending it twice at once is harmless.
    public var methods: Set<HTTPMethod>

    /// The methods hedged by default: `GET`, `HEAD` and `OPTIONS`, which change nothing.
    public static let safeMethods: Set<HTTPMethod> = [.get, .head, .options]

    /// Creates a hedging policy.
    /// - Parameters:
    ///   - delay: When the next copy starts.
    ///   - maximumHedges: The most copies sent besides the first.
    ///   - methods: The methods hedged; ``safeMethods`` by default.
    public init(delay: Delay, maximumHedges: Int = 1, methods: Set<HTTPMethod> = Hedging.safeMethods) {
        self.delay = delay
        self.maximumHedges = min(max(1, maximumHedges), 10)
        self.methods = methods
    }
}
