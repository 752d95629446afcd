/// Whether a request's network activity began or ended.
///
/// A closed set: a `switch` over it may list every case (see <doc:SourceStability>).
public enum NetworkActivityChangeType: Sendable, Hashable {
    /// The request started sending.
    case began
    /// The request finished, whatever its outcome.
    case ended
}

/// Tells you when requests begin and end, for a network activity indicator: exactly one `began`
/// and one `ended` per request, whatever happens (retries, adapter failures, cancellation, stubs).
///
/// `began` comes with the first attempt's `willSend`; `ended` with the result. A request that
/// ends before any attempt (it could not be built, or was cancelled first) reports both then.
/// ```swift
/// let activity = NetworkActivityPlugin { change, _ in
///     Task { @MainActor in indicator.update(change) }
/// }
/// ```
public struct NetworkActivityPlugin: ObservingPlugin {
    private let networkActivityClosure: @Sendable (NetworkActivityChangeType, any TargetType) -> Void
    private let active = Locked<Set<RequestID>>([])

    /// Creates the plugin.
    /// - Parameter networkActivityClosure: Called with each change and its target, on any thread.
    public init(networkActivityClosure: @escaping @Sendable (NetworkActivityChangeType, any TargetType) -> Void) {
        self.networkActivityClosure = networkActivityClosure
    }

    /// Reports `began` for the request's first attempt.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - target: The target being requested.
    public func willSend(_ request: PreparedRequest, target: any TargetType) {
        let isFirst = active.withLock { $0.insert(request.requestID).inserted }
        if isFirst { networkActivityClosure(.began, target) }
    }

    /// Reports `ended` (after `began`, if the request never sent an attempt).
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target that was requested.
    ///   - metrics: The request's identifier.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        let hadBegun = active.withLock { $0.remove(metrics.requestID) != nil }
        if !hadBegun { networkActivityClosure(.began, target) }
        networkActivityClosure(.ended, target)
    }
}
