/// Where a transport request comes from: the provider's target, the request's identifier and the
/// attempt, for transports and stages that record or trace exchanges (CourierTesting's HAR
/// recorder names its entries with them). The provider sets it for an engine that declares
/// ``TransportCapabilities/requestOrigin``; a request a caller builds by hand has none.
///
/// ```swift
/// struct Tracing: Transport {
///     let base: any Transport
///     var capabilities: TransportCapabilities { base.capabilities.union(.requestOrigin) }
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         if let origin = request.origin { print(origin.target, "attempt", origin.attempt) }
///         return try await base.send(request)
///     }
/// }
/// ```
public final class RequestOrigin: Sendable {
    /// The target the provider sent.
    public let target: any TargetType
    /// The request's identifier, the same on every attempt (``RequestMetrics/requestID``).
    public let requestID: RequestID
    /// The attempt, from 1.
    public let attempt: Int

    /// Describes where a request comes from.
    /// - Parameters:
    ///   - target: The target the provider sent.
    ///   - requestID: The request's identifier.
    ///   - attempt: The attempt, from 1.
    public init(target: any TargetType, requestID: RequestID, attempt: Int) {
        self.target = target
        self.requestID = requestID
        self.attempt = attempt
    }
}
