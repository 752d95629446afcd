import Courier
import CourierTesting
import Foundation

#if canImport(Combine)
    import Combine
#else
    @preconcurrency import OpenCombine
#endif

/// What a subscriber received, in order, and a way to wait for the end.
final class PublisherEvents<Output: Sendable>: Sendable {
    private let received = TestBox<[Output]>([])
    private let ending = TestBox<Subscribers.Completion<CourierError>?>(nil)
    private let ended = CallRecorder()

    /// The values so far.
    var values: [Output] { received.value }
    /// The completion, once it came.
    var completion: Subscribers.Completion<CourierError>? { ending.value }

    /// Subscribes to `publisher` with a sink that records into this object.
    func sink(_ publisher: AnyPublisher<Output, CourierError>) -> AnyCancellable {
        publisher.sink(
            receiveCompletion: { completion in
                self.ending.value = completion
                self.ended.record(.send)
            },
            receiveValue: { value in self.received.modify { $0.append(value) } })
    }

    /// Waits (10 s at most) for the completion; `true` if it came.
    func waitForCompletion() async -> Bool {
        await ended.wait(for: .send)
    }

    /// The failure, if the publisher failed.
    var failure: CourierError? {
        if case .failure(let error)? = completion { return error }
        return nil
    }
}
