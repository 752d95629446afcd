extension Response {
    /// Returns this response when its status code is in `statusCodes`.
    /// - Parameter statusCodes: The accepted status codes, for example `200...299`.
    /// - Returns: `self`.
    /// - Throws: ``CourierError/statusCode(_:)`` when the code is not accepted.
    public func filter<Codes: RangeExpression>(statusCodes: Codes) throws(CourierError) -> Response
    where Codes.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw .statusCode(self) }
        return self
    }

    /// Returns this response when its status code is `statusCode`.
    /// - Parameter statusCode: The accepted status code.
    /// - Returns: `self`.
    /// - Throws: ``CourierError/statusCode(_:)`` for any other code.
    public func filter(statusCode: Int) throws(CourierError) -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Returns this response when its status code is 2xx.
    /// - Returns: `self`.
    /// - Throws: ``CourierError/statusCode(_:)`` for any other code.
    public func filterSuccessfulStatusCodes() throws(CourierError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Returns this response when its status code is 2xx or 3xx.
    /// - Returns: `self`.
    /// - Throws: ``CourierError/statusCode(_:)`` for any other code.
    public func filterSuccessfulStatusAndRedirectCodes() throws(CourierError) -> Response {
        try filter(statusCodes: 200...399)
    }
}
