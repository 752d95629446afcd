/// Which recorded entry a ``HARReplayer`` gives for a request that several match.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum ReplayOrder: Sendable, Hashable {
    /// Each entry answers once, the first unused one that matches (vcrpy's and VCR's default): a
    /// request asked twice gets the two recorded answers in turn.
    case inOrder
    /// The first entry that matches answers every time.
    case firstMatch
}

/// How long a ``HARReplayer`` takes to answer.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum ReplayTiming: Sendable, Hashable {
    /// At once, a streamed body whole (the default: tests in milliseconds).
    case none
    /// As recorded: the wait for the head, then a streamed body's chunks at their recorded times.
    case recorded
    /// The recorded times multiplied by this factor (`0.1` for ten times faster).
    case scaled(Double)

    /// The factor applied to recorded times, or `nil` for none.
    var factor: Double? {
        switch self {
        case .none: nil
        case .recorded: 1
        case .scaled(let factor): factor
        }
    }
}
