import Foundation

/// How a ``FaultInjectingTransport`` fails an exchange.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum Fault: Sendable, Hashable {
    /// Answers with this status, and a `Retry-After` of these seconds when given.
    case status(Int, retryAfter: Int? = nil)
    /// Fails as a refused connection (`URLError.cannotConnectToHost`), at once.
    case connectionRefused
    /// Fails as a lost connection (`URLError.networkConnectionLost`), after the latency.
    case connectionLost
    /// Never answers: the exchange waits until its timeout or cancellation.
    case noAnswer
    /// Answers, then loses the connection after this many bytes of the body (a
    /// ``HARReplayer``'s streamed body gives them first; elsewhere it fails as
    /// ``connectionLost``).
    case cutBody(afterBytes: Int)
    /// Answers as it would have, this many seconds late (on the ``FaultInjectingTransport``'s
    /// clock; a ``HARReplayer`` waits in real time).
    case delay(TimeInterval)
}

/// A window of the ``FaultInjectingTransport``'s clock during which every exchange fails.
public struct Outage: Sendable, Hashable {
    /// When it starts, in the clock's seconds.
    public var start: TimeInterval
    /// When it ends, in the clock's seconds (not included).
    public var end: TimeInterval
    /// How exchanges fail during it.
    public var fault: Fault

    /// Describes an outage.
    /// - Parameters:
    ///   - start: When it starts, in the clock's seconds.
    ///   - end: When it ends, in the clock's seconds.
    ///   - fault: How exchanges fail during it; a 503 by default.
    public init(from start: TimeInterval, to end: TimeInterval, fault: Fault = .status(503)) {
        self.start = start
        self.end = end
        self.fault = fault
    }

    /// Whether the outage covers `time`.
    func covers(_ time: TimeInterval) -> Bool { time >= start && time < end }
}

/// How long a ``FaultInjectingTransport``'s exchanges take, on its clock.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum Latency: Sendable, Hashable {
    /// Every exchange takes this many seconds.
    case fixed(TimeInterval)
    /// Each exchange takes a uniformly random time in the range.
    case uniform(ClosedRange<TimeInterval>)
    /// Most take `typical` seconds; a share `slowShare` of them take `slow` seconds (a tail).
    case tail(typical: TimeInterval, slow: TimeInterval, slowShare: Double)

    /// The latency that `random` (in `0..<1`) picks.
    func seconds(random: Double) -> TimeInterval {
        switch self {
        case .fixed(let seconds): seconds
        case .uniform(let range): range.lowerBound + (range.upperBound - range.lowerBound) * random
        case .tail(let typical, let slow, let share): random < share ? slow : typical
        }
    }
}

/// A seeded pseudo-random sequence (SplitMix64): the same seed gives the same numbers.
struct SeededRandom: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next number in `0..<1`.
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        value ^= value >> 31
        return Double(value >> 11) / Double(1 << 53)
    }
}
