/// What an interceptor knows about the request it is adapting or retrying.
public struct RequestContext: Sendable {
    /// The target being requested.
    public let target: any TargetType
    /// The attempt number, starting at 1. In `retry` it is the attempt that just failed.
    public let attempt: Int
    /// The response of the failed attempt, when it got one (always `nil` in `adapt`).
    public let response: Response?

    /// Creates a context.
    /// - Parameters:
    ///   - target: The target being requested.
    ///   - attempt: The attempt number, starting at 1.
    ///   - response: The response of the failed attempt, if any.
    public init(target: any TargetType, attempt: Int, response: Response? = nil) {
        self.target = target
        self.attempt = attempt
        self.response = response
    }
}
