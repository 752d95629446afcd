import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// Sends the request of `target` and returns its response.
    ///
    /// Cancelling the calling Swift task cancels the request: it ends with
    /// ``CourierError/cancelled``.
    /// - Parameter target: The target to request.
    /// - Returns: The response, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the request fails.
    public func request(_ target: Target) async throws(CourierError) -> Response {
        try await perform(target).get()
    }

    /// Sends the request of `target` and decodes its body.
    /// ```swift
    /// let user = try await provider.request(.user("octocat"), as: User.self)
    /// ```
    /// - Parameters:
    ///   - target: The target to request.
    ///   - type: The type to decode.
    ///   - keyPath: A dot-separated key path into the JSON body, or `nil` for the whole body.
    ///   - decoder: The decoder to use.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError`` when the request or the decoding fails.
    public func request<Value: Decodable>(
        _ target: Target, as type: Value.Type, atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder()
    ) async throws(CourierError) -> Value {
        try await request(target).map(type, atKeyPath: keyPath, using: decoder)
    }

    /// Sends the request of `target` and calls `completion` with the result, exactly once.
    ///
    /// A thin wrapper over the async ``request(_:)``: the same path and the same order.
    /// ```swift
    /// let request = provider.request(.zen) { result in
    ///     if case .success(let response) = result { print(try? response.mapString()) }
    /// }
    /// request.cancel()   // completion gets .failure(.cancelled)
    /// ```
    /// - Parameters:
    ///   - target: The target to request.
    ///   - callbackQueue: Where `completion` runs; the provider's ``callbackQueue`` by default.
    ///   - completion: Receives the response or the error.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func request(
        _ target: Target, callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Response, CourierError>) -> Void
    ) -> any Cancellable {
        let queue = callbackQueue ?? self.callbackQueue
        let task = Task {
            let result = await perform(target)
            queue.async { completion(result) }
        }
        return CancellableTask(task: task)
    }
}
