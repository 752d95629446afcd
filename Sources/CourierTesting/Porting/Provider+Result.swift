import Courier

extension Provider {
    /// Sends the request of `target` and returns its result, never throwing: what a ported Moya
    /// test asserts on, on the next line.
    ///
    /// ```swift
    /// let result = await provider.result(for: .zen)
    /// #expect(try result.get().statusCode == 200)
    /// ```
    /// - Parameter target: The target to request.
    /// - Returns: The response, or the request's ``CourierError``.
    public func result(for target: Target) async -> Result<Response, CourierError> {
        do {
            return .success(try await request(target))
        } catch {
            return .failure(error)
        }
    }
}
