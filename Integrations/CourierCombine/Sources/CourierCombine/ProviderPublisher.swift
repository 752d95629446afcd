import Courier
import Foundation

#if canImport(Combine)
    import Combine
#else
    // Combine exists only on Apple platforms; OpenCombine has the same API.
    @preconcurrency import OpenCombine
#endif

/// A publisher that starts one Courier request when its subscriber first asks for a value,
/// publishes what the request reports, and cancels the request when the subscription is cancelled.
///
/// `start` sends the request with two callbacks: `send` for each value (a response, or progress
/// reports) and `finish` for the end. It returns the request's ``Cancellable``.
public struct ProviderPublisher<Output: Sendable>: Publisher {
    /// Courier's one error type.
    public typealias Failure = CourierError

    /// Sends the request; returns what cancels it.
    public typealias Start =
        @Sendable (
            _ send: @escaping @Sendable (Output) -> Void,
            _ finish: @escaping @Sendable (Result<Void, CourierError>) -> Void
        ) -> any Courier.Cancellable

    private let start: Start
    private let keepsLatestOnly: Bool

    /// Creates the publisher.
    /// - Parameters:
    ///   - keepsLatestOnly: Whether values that arrive while the subscriber has no demand may be
    ///     dropped for a newer one (progress reports); otherwise each waits for demand.
    ///   - start: Sends the request.
    public init(keepsLatestOnly: Bool = false, start: @escaping Start) {
        self.start = start
        self.keepsLatestOnly = keepsLatestOnly
    }

    /// Attaches `subscriber`; the request starts at its first demand.
    /// - Parameter subscriber: The subscriber.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == CourierError {
        let subscription = RequestSubscription(
            subscriber: AnySubscriber(subscriber), keepsLatestOnly: keepsLatestOnly, start: start)
        subscriber.receive(subscription: subscription)
    }
}
