import Foundation

/// What a provider's ``HTTPCache`` did for an attempt: on ``Response/cacheOutcome`` and
/// ``AttemptMetrics/cacheOutcome``; `nil` there when the provider has no cache or the request
/// did not go through it (a stream, a download, a method other than GET).
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum CacheOutcome: Sendable, Hashable {
    /// The network answered; the answer was stored if it could be.
    case miss
    /// A stored response, fresh enough for the request: no network.
    case fresh
    /// A stored response the server confirmed with a `304 Not Modified`, whose header fields
    /// are given; the caller gets the stored status and body with the fields updated.
    case revalidated(notModified: HeaderFields)
    /// A stored response served stale, and why the request allowed it.
    case stale(StaleReason)
    /// Another request for the same response was on its way: this one waited and got the same
    /// answer, so the server was asked once.
    case shared
    /// The request allowed only a stored answer (`only-if-cached`) and there was none usable:
    /// the cache answered `504 Gateway Timeout` itself.
    case unsatisfiable

    /// Why a stale response was served.
    ///
    /// Later versions may add cases: a `switch` over it needs a `default`.
    public enum StaleReason: Sendable, Hashable {
        /// The request accepts it (`max-stale`, or a `cachePolicy` that accepts any age).
        case maxStale
        /// Within the response's `stale-while-revalidate` window: a validation runs in the
        /// background for the next request.
        case whileRevalidating
        /// The server failed (a 500, 502, 503 or 504, or no answer) within a `stale-if-error`
        /// window.
        case ifError
    }

    /// Whether the answer came from storage, without a full response from the network.
    public var isHit: Bool {
        switch self {
        case .fresh, .revalidated, .stale, .shared: true
        case .miss, .unsatisfiable: false
        }
    }
}

/// A cache outcome behind one pointer: responses and metrics, copied many times per request,
/// carry a nil pointer when there is no cache instead of a payload enum.
final class CacheRecord: Sendable, Hashable {
    let outcome: CacheOutcome

    init(_ outcome: CacheOutcome) {
        self.outcome = outcome
    }

    static func == (first: CacheRecord, second: CacheRecord) -> Bool { first.outcome == second.outcome }

    func hash(into hasher: inout Hasher) { hasher.combine(outcome) }
}
