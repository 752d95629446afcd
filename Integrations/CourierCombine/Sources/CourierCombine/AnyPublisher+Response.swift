import Courier
import Foundation

#if canImport(Combine)
    import Combine
#else
    // Combine exists only on Apple platforms; OpenCombine has the same API.
    @preconcurrency import OpenCombine
#endif

// Moya's operators on a publisher of responses: each applies the `Response` method of the same
// name and fails the publisher with its `CourierError`.
extension AnyPublisher where Output == Response, Failure == CourierError {
    /// Fails unless the status code is in `statusCodes`.
    /// - Parameter statusCodes: The accepted codes.
    /// - Returns: The filtered publisher.
    public func filter<Codes: RangeExpression>(statusCodes: Codes) -> AnyPublisher<Response, CourierError>
    where Codes.Bound == Int {
        apply { response throws(CourierError) in try response.filter(statusCodes: statusCodes) }
    }

    /// Fails unless the status code is `statusCode`.
    /// - Parameter statusCode: The accepted code.
    /// - Returns: The filtered publisher.
    public func filter(statusCode: Int) -> AnyPublisher<Response, CourierError> {
        apply { response throws(CourierError) in try response.filter(statusCode: statusCode) }
    }

    /// Fails unless the status code is 200–299.
    /// - Returns: The filtered publisher.
    public func filterSuccessfulStatusCodes() -> AnyPublisher<Response, CourierError> {
        apply { response throws(CourierError) in try response.filterSuccessfulStatusCodes() }
    }

    /// Fails unless the status code is 200–399.
    /// - Returns: The filtered publisher.
    public func filterSuccessfulStatusAndRedirectCodes() -> AnyPublisher<Response, CourierError> {
        apply { response throws(CourierError) in try response.filterSuccessfulStatusAndRedirectCodes() }
    }

    /// The body as a string (or the string at `keyPath` of its JSON).
    /// - Parameter keyPath: A key path into the JSON body, if any.
    /// - Returns: A publisher of the string.
    public func mapString(atKeyPath keyPath: String? = nil) -> AnyPublisher<String, CourierError> {
        apply { response throws(CourierError) in try response.mapString(atKeyPath: keyPath) }
    }

    /// The body decoded as `type` (at `keyPath` of its JSON, if given).
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: A key path into the JSON body, if any.
    ///   - decoder: The decoder.
    ///   - failsOnEmptyData: Whether an empty body fails instead of decoding JSON `null`.
    /// - Returns: A publisher of the value.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) -> AnyPublisher<D, CourierError> {
        apply { response throws(CourierError) in
            try response.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
        }
    }

    private func apply<T>(_ transform: @escaping (Response) throws(CourierError) -> T) -> AnyPublisher<T, CourierError>
    {
        flatMap { response -> AnyPublisher<T, CourierError> in
            do throws(CourierError) {
                return Just(try transform(response)).setFailureType(to: CourierError.self).eraseToAnyPublisher()
            } catch {
                return Fail(error: error).eraseToAnyPublisher()
            }
        }
        .eraseToAnyPublisher()
    }
}
