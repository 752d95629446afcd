import Courier
import Foundation

#if canImport(Combine)
    import Combine
#else
    // Combine exists only on Apple platforms; OpenCombine has the same API.
    @preconcurrency import OpenCombine
#endif

/// The subscription of a ``ProviderPublisher``: starts the request at the first demand, hands
/// values to the subscriber as demand allows, and cancels the request on `cancel()`.
///
/// Combine requires that a subscriber is called serially: every call to it happens while holding
/// `delivery`, a recursive lock (a subscriber may cancel or ask for more from inside `receive`).
///
/// The subscriber is held type-erased, so that the callbacks the request keeps capture no
/// subscriber type.
final class RequestSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    // `@unchecked Sendable`: every stored property that changes is read and written only while
    // holding `delivery`, and the subscriber is only called while holding it.
    private let delivery = NSRecursiveLock()
    private var subscriber: AnySubscriber<Output, CourierError>?
    private var demand = Subscribers.Demand.none
    private var pending: [Output] = []
    private var ending: Subscribers.Completion<CourierError>?
    private var request: (any Courier.Cancellable)?
    private var start: ProviderPublisher<Output>.Start?
    private let keepsLatestOnly: Bool

    init(
        subscriber: AnySubscriber<Output, CourierError>, keepsLatestOnly: Bool,
        start: @escaping ProviderPublisher<Output>.Start
    ) {
        self.subscriber = subscriber
        self.keepsLatestOnly = keepsLatestOnly
        self.start = start
    }

    func request(_ more: Subscribers.Demand) {
        delivery.lock()
        defer { delivery.unlock() }
        guard subscriber != nil else { return }
        demand += more
        if let start {
            self.start = nil
            // Strong captures: the request keeps its subscription alive until it ends, whether or
            // not the subscriber holds it (an `AnySubscriber` of closures does not).
            request = start({ value in self.enqueue(value) }, { self.end($0) })
        }
        drain()
    }

    func cancel() {
        delivery.lock()
        let request = self.request
        subscriber = nil
        start = nil
        pending = []
        self.request = nil
        delivery.unlock()
        request?.cancel()
    }

    private func enqueue(_ value: Output) {
        delivery.lock()
        defer { delivery.unlock() }
        guard subscriber != nil else { return }
        if keepsLatestOnly, demand == .none { pending = [value] } else { pending.append(value) }
        drain()
    }

    private func end(_ result: Result<Void, CourierError>) {
        delivery.lock()
        defer { delivery.unlock() }
        guard subscriber != nil else { return }
        switch result {
        case .success: ending = .finished
        case .failure(let error): ending = .failure(error)
        }
        drain()
    }

    /// Hands pending values to the subscriber while it has demand, then the end once nothing is
    /// pending. Called while holding `delivery`.
    private func drain() {
        while let subscriber, demand > .none, !pending.isEmpty {
            demand -= 1
            demand += subscriber.receive(pending.removeFirst())
        }
        guard let subscriber, let ending else { return }
        var failed = false
        if case .failure = ending { failed = true }
        // A failure is delivered at once; the end of a success after the last value.
        if pending.isEmpty || failed {
            self.subscriber = nil
            request = nil
            subscriber.receive(completion: ending)
        }
    }
}
