import Foundation

/// Identifies one request of a provider, so observers can tie its attempts to its result.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// Which provider made the request (0 when built by hand).
    let scope: ObjectIdentifier?
    /// The request's number within its provider, from 1.
    public let sequence: UInt64

    /// Creates an identifier, for tests of your own plugins.
    /// - Parameter sequence: The request's number.
    public init(sequence: UInt64) {
        self.scope = nil
        self.sequence = sequence
    }

    init(scope: ObjectIdentifier, sequence: UInt64) {
        self.scope = scope
        self.sequence = sequence
    }

    /// For example `#12`.
    public var description: String { "#\(sequence)" }
}

/// Timings and sizes of one attempt, as the provider measured them.
public struct AttemptMetrics: Sendable, Equatable {
    /// The attempt number, from 1.
    public var number: Int { storage.fields.number }
    /// When the attempt started (before `prepare`).
    public var startDate: Date { storage.fields.startDate }
    /// How long the attempt took, from `prepare` to validation, in seconds.
    public var duration: TimeInterval { storage.fields.duration }
    /// The response's status code, when one was received.
    public var statusCode: Int? { storage.fields.statusCode }
    /// The size of the request body sent, in bytes.
    public var bytesSent: Int { storage.fields.bytesSent }
    /// The size of the response body received, in bytes.
    public var bytesReceived: Int { storage.fields.bytesReceived }
    /// The stage that failed, or `nil` when the attempt succeeded.
    public var failure: CourierError.Stage? { storage.fields.failure }
    /// Why another attempt followed this one, or `nil` when none did.
    public internal(set) var retryReason: RetryReason? {
        get { storage.fields.retryReason }
        set { change { $0.retryReason = newValue } }
    }
    /// How many times the transport sent this attempt's request again by itself, after a
    /// kept-alive connection closed under it unanswered (an idempotent request only); 0 almost
    /// always.
    public var transportResends: Int { storage.fields.transportResends }
    /// The HTTP version the answer came in (`1.1`, `2`…, OpenTelemetry's
    /// `network.protocol.version`), when the engine reports it: AsyncHTTPClient does; URLSession
    /// and stubs do not.
    public var protocolVersion: String? { storage.fields.protocolVersion }
    /// What the provider's ``HTTPCache`` did for this attempt, or `nil` without a cache (or for
    /// a request that did not go through it).
    public var cacheOutcome: CacheOutcome? { cacheRecord?.outcome }
    /// Where ``cacheOutcome`` is kept.
    var cacheRecord: CacheRecord? { storage.fields.cacheRecord }
    /// What the request's ``ResiliencePolicy`` did to this attempt (waits, hedges, the circuit
    /// breaker's transitions), or `nil` when no policy applies or a stored answer served it.
    public var resilience: ResilienceRecord? { storage.fields.resilience }
    /// Why no retry followed this attempt although the retrier asked for one (the retry budget,
    /// the total timeout), or `nil`.
    public internal(set) var retryRefusal: RetryRefusal? {
        get { storage.fields.retryRefusal }
        set { change { $0.retryRefusal = newValue } }
    }

    /// The fields, shared by every copy: metrics go to the attempt's observers, the request's
    /// list and the retrier, and copying the records in them cost about 1,000 instructions per
    /// request (callgrind, Benchmarks/README); a change makes a new storage (only on a retry).
    private var storage: Storage

    /// Creates attempt metrics.
    /// - Parameters:
    ///   - number: The attempt number.
    ///   - startDate: When it started.
    ///   - duration: How long it took, in seconds.
    ///   - statusCode: The status code, if any.
    ///   - bytesSent: The request body's size.
    ///   - bytesReceived: The response body's size.
    ///   - failure: The failed stage, if any.
    ///   - retryReason: Why another attempt followed, if one did.
    public init(
        number: Int, startDate: Date, duration: TimeInterval, statusCode: Int?, bytesSent: Int, bytesReceived: Int,
        failure: CourierError.Stage?, retryReason: RetryReason? = nil
    ) {
        storage = Storage(
            Fields(
                number: number, startDate: startDate, duration: duration, statusCode: statusCode,
                bytesSent: bytesSent, bytesReceived: bytesReceived, failure: failure, retryReason: retryReason))
    }

    /// Metrics with what the transport, the cache and the policy recorded about the attempt.
    init(
        number: Int, startDate: Date, duration: TimeInterval, statusCode: Int?, bytesSent: Int, bytesReceived: Int,
        failure: CourierError.Stage?, transportResends: Int, protocolVersion: String?, cacheRecord: CacheRecord?,
        resilience: ResilienceRecord?
    ) {
        storage = Storage(
            Fields(
                number: number, startDate: startDate, duration: duration, statusCode: statusCode,
                bytesSent: bytesSent, bytesReceived: bytesReceived, failure: failure,
                transportResends: transportResends, protocolVersion: protocolVersion,
                cacheRecord: cacheRecord, resilience: resilience))
    }

    /// Whether two attempts' metrics are the same, field by field.
    public static func == (lhs: AttemptMetrics, rhs: AttemptMetrics) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }
}

extension AttemptMetrics {
    /// The values of ``AttemptMetrics``.
    private struct Fields: Sendable, Equatable {
        var number: Int
        var startDate: Date
        var duration: TimeInterval
        var statusCode: Int?
        var bytesSent: Int
        var bytesReceived: Int
        var failure: CourierError.Stage?
        var retryReason: RetryReason?
        var transportResends = 0
        var protocolVersion: String?
        var cacheRecord: CacheRecord?
        var resilience: ResilienceRecord?
        var retryRefusal: RetryRefusal?
    }

    /// Immutable, so copies of ``AttemptMetrics`` share one; a change makes another.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

/// What a request did, handed to ``PluginType/didReceive(_:target:metrics:)``: its identifier,
/// its total duration and each attempt's metrics.
public struct RequestMetrics: Sendable {
    /// The request's identifier, the same one ``PreparedRequest/requestID`` carried.
    public let requestID: RequestID
    /// When the request started (before the request closure).
    public let startDate: Date
    /// How long the request took until its result, in seconds (before `process`).
    public let duration: TimeInterval
    /// Each attempt, in order; empty when building the request failed or it was cancelled first.
    public let attempts: [AttemptMetrics]

    /// Creates request metrics.
    /// - Parameters:
    ///   - requestID: The request's identifier.
    ///   - startDate: When it started.
    ///   - duration: How long it took, in seconds.
    ///   - attempts: Each attempt's metrics.
    public init(requestID: RequestID, startDate: Date, duration: TimeInterval, attempts: [AttemptMetrics]) {
        self.requestID = requestID
        self.startDate = startDate
        self.duration = duration
        self.attempts = attempts
    }
}

/// A monotonic stopwatch for durations; `Date` is only used for the start timestamps.
struct Stopwatch {
    let startDate = Date()
    private let start = DispatchTime.now().uptimeNanoseconds

    var elapsed: TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
    }
}
