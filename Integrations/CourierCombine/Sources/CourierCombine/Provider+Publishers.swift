import Courier
import Foundation

#if canImport(Combine)
    import Combine
#else
    // Combine exists only on Apple platforms; OpenCombine has the same API.
    @preconcurrency import OpenCombine
#endif

extension Provider {
    /// A publisher of the response of `target`, as Moya's `requestPublisher`: one value and
    /// `finished`, or one failure.
    ///
    /// ```swift
    /// let subscription = provider.requestPublisher(.user("octocat"))
    ///     .map(User.self)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.login) })
    /// ```
    /// The request starts when the subscriber first asks for a value, runs through the provider's
    /// whole pipeline (plugins, interceptor, stubs), and is cancelled when the subscription is.
    /// - Parameters:
    ///   - target: The target to request.
    ///   - callbackQueue: Where values are published; the provider's `callbackQueue` by default.
    /// - Returns: The publisher.
    public func requestPublisher(
        _ target: Target, callbackQueue: DispatchQueue? = nil
    ) -> AnyPublisher<Response, CourierError> {
        ProviderPublisher<Response> { send, finish in
            self.request(target, callbackQueue: callbackQueue) { result in
                switch result {
                case .success(let response):
                    send(response)
                    finish(.success(()))
                case .failure(let error):
                    finish(.failure(error))
                }
            }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher of the progress of `target`'s request, as Moya's `requestWithProgressPublisher`:
    /// progress reports (sent bytes for uploads, received bytes otherwise), then one carrying the
    /// response, and `finished`; or a failure.
    ///
    /// Reports that arrive while the subscriber asks for none are dropped for newer ones; the last
    /// one, with the response, always waits for demand.
    /// - Parameters:
    ///   - target: The target to request.
    ///   - callbackQueue: Where values are published; the provider's `callbackQueue` by default.
    /// - Returns: The publisher.
    public func requestWithProgressPublisher(
        _ target: Target, callbackQueue: DispatchQueue? = nil
    ) -> AnyPublisher<ProgressResponse, CourierError> {
        ProviderPublisher<ProgressResponse>(keepsLatestOnly: true) { send, finish in
            self.request(target, callbackQueue: callbackQueue, progress: send) { result in
                finish(result.map { _ in () })
            }
        }
        .eraseToAnyPublisher()
    }
}
