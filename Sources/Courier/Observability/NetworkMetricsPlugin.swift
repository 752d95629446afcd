/// Hands each request's timings to a closure: total duration, and per attempt its duration,
/// status code and bytes sent and received.
///
/// ```swift
/// let metrics = NetworkMetricsPlugin { metrics, result, target in
///     histogram.record(metrics.duration, path: target.path)
///     for attempt in metrics.attempts where attempt.failure != nil { failures.increment() }
/// }
/// ```
public struct NetworkMetricsPlugin: ObservingPlugin {
    private let handler: @Sendable (RequestMetrics, Result<Response, CourierError>, any TargetType) -> Void

    /// Creates the plugin.
    /// - Parameter handler: Receives each request's metrics, result and target, once per request.
    public init(handler: @escaping @Sendable (RequestMetrics, Result<Response, CourierError>, any TargetType) -> Void) {
        self.handler = handler
    }

    /// Hands the metrics to the closure.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target that was requested.
    ///   - metrics: The request's timings.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        handler(metrics, result, target)
    }
}
