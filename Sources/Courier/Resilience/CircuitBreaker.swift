import Foundation

/// When to stop sending to a dependency that is failing, and how to find out that it is back.
///
/// *Closed*, requests pass and their outcomes count in a sliding window of
/// ``samplingDuration`` seconds. The breaker *opens* when that window saw at least
/// ``minimumThroughput`` outcomes of which at least ``failureRatio`` failed, or after
/// ``consecutiveFailures`` failures in a row (when set). *Open*, every attempt fails at once,
/// without touching the network, with ``ResilienceError/circuitOpen(retryAfter:)``, for
/// ``breakDuration`` seconds. Then it is *half-open*: at most ``halfOpenProbes`` attempts go
/// through as probes; the first to succeed closes it, one that fails opens it again.
///
/// An outcome is a failure when the exchange failed (connection refused, reset, timed out…),
/// except for a cancellation, or when the status is in ``failureStatusCodes`` (every 5xx, 408 and
/// 429 by default): never a 4xx the request itself caused.
///
/// The defaults open after ten failures in a row, or within about a second of a dependency going
/// down at any rate of at least 10 requests per two seconds: .NET's standard handler (10 % of at
/// least 100 requests in 30 s) waits for a 30-second window full of earlier successes and never
/// opens for a client making fewer than 100 requests in 30 s.
public struct CircuitBreaker: Sendable, Hashable {
    /// The share of failures in the window that opens the breaker; `0.5` by default.
    public var failureRatio: Double
    /// The fewest outcomes in the window before the ratio counts; `10` by default.
    public var minimumThroughput: Int
    /// How far back outcomes count, in seconds; `2` by default.
    public var samplingDuration: TimeInterval
    /// How long the breaker stays open before it lets probes through, in seconds; `5` by default.
    public var breakDuration: TimeInterval
    /// How many probes may be in flight while half-open; `1` by default.
    public var halfOpenProbes: Int
    /// Failures in a row that open the breaker whatever the window, or `nil` for the ratio
    /// alone; `10` by default, so that a client with little traffic, whose window never holds
    /// ``minimumThroughput`` outcomes, still stops sending to a dependency that is down.
    public var consecutiveFailures: Int?
    /// The status codes that count as failures: 408, 429 and every 5xx by default.
    public var failureStatusCodes: Set<Int>
    /// Whether a failed exchange (no response) counts as a failure; `true` by default.
    public var countsTransportFailures: Bool

    /// 408, 429 and 500 to 599.
    public static let defaultFailureStatusCodes: Set<Int> = Set([408, 429] + Array(500...599))

    /// Creates a breaker; every setting has the default documented on its property.
    /// - Parameters:
    ///   - failureRatio: The share of failures in the window that opens the breaker.
    ///   - minimumThroughput: The fewest outcomes in the window before the ratio counts.
    ///   - samplingDuration: How far back outcomes count, in seconds.
    ///   - breakDuration: How long the breaker stays open before it probes, in seconds.
    ///   - halfOpenProbes: How many probes may be in flight while half-open.
    ///   - consecutiveFailures: Failures in a row that open it, or `nil`.
    public init(
        failureRatio: Double = 0.5, minimumThroughput: Int = 10, samplingDuration: TimeInterval = 2,
        breakDuration: TimeInterval = 5, halfOpenProbes: Int = 1, consecutiveFailures: Int? = 10
    ) {
        self.failureRatio = failureRatio.isFinite ? min(max(failureRatio, 0.001), 1) : 0.5
        self.minimumThroughput = max(1, minimumThroughput)
        self.samplingDuration = samplingDuration.isFinite ? min(max(samplingDuration, 0.1), 3600) : 2
        self.breakDuration = breakDuration.isFinite ? min(max(breakDuration, 0), Delay.maximumSeconds) : 5
        self.halfOpenProbes = max(1, halfOpenProbes)
        self.consecutiveFailures = consecutiveFailures.map { max(1, $0) }
        self.failureStatusCodes = Self.defaultFailureStatusCodes
        self.countsTransportFailures = true
    }

    /// The breaker of ``ResiliencePolicy/standard``.
    public static let standard = CircuitBreaker()

    /// Whether an exchange that answered `status` counts as a failure.
    func isFailure(status: Int) -> Bool { failureStatusCodes.contains(status) }
}

/// The state of a ``CircuitBreaker``.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum CircuitState: String, Sendable, Hashable {
    /// Requests pass, and their outcomes count.
    case closed
    /// Requests fail at once, without touching the network.
    case open
    /// A bounded number of probes pass; their outcome closes or opens the breaker.
    case halfOpen
}

/// A change of a circuit breaker's state, as the attempt that caused or saw it records it in
/// ``ResilienceRecord/circuitTransitions``.
public struct CircuitTransition: Sendable, Hashable, CustomStringConvertible {
    /// The state before.
    public let from: CircuitState
    /// The state after.
    public let to: CircuitState
    /// The breaker's scope key: the origin (`https://api.example.com:443`), `provider` or the group.
    public let scope: String

    /// Describes a transition.
    /// - Parameters:
    ///   - from: The state before.
    ///   - to: The state after.
    ///   - scope: The breaker's scope key.
    public init(from: CircuitState, to: CircuitState, scope: String) {
        self.from = from
        self.to = to
        self.scope = scope
    }

    /// For example `circuit https://api.example.com:443 closed → open`.
    public var description: String { "circuit \(scope) \(from.rawValue) → \(to.rawValue)" }
}
