import Courier
import Foundation
import Metrics

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records OpenTelemetry's HTTP client metrics for each attempt, and Courier's own for each
/// request (count, duration, attempts, retries), through swift-metrics, labelled by bounded
/// dimensions only.
///
/// ```swift
/// let metrics = MetricsPlugin()   // the factory bootstrapped in MetricsSystem
/// let provider = Provider<GitHub>(plugins: [metrics])
/// ```
/// | Metric | Kind | When | Dimensions |
/// |---|---|---|---|
/// | `http.client.request.duration` | timer (seconds) | per attempt | `http.request.method`, `server.address`, `server.port`, `network.protocol.version` (when the engine reports it), `http.response.status_code` (when answered), `error.type` (when failed), `courier.target` |
/// | `http.client.request.body.size`, `http.client.response.body.size` | recorder, bytes | per attempt | the same |
/// | `http.client.active_requests` | meter | attempts in flight, from the transmitted request to the attempt's outcome | `http.request.method`, `server.address`, `server.port` |
/// | `courier.client.request.duration` | timer (seconds) | per request, first attempt to result | `courier.target`, `http.request.method`, `http.response.status_class` or `error.type` |
/// | `courier.client.requests` | counter | per request | the same |
/// | `courier.client.attempts` | counter | per attempt | `courier.target`, `http.request.method`, `outcome` (`success` or the `error.type`) |
/// | `courier.client.retries` | counter | per request that was retried after a failure, by the number of those retries | `courier.target`, `http.request.method` |
/// | `courier.client.reauthentications` | counter | per request sent again with a refreshed credential after an authentication failure, by the number of resends | the same |
/// | `courier.client.circuit.transitions` | counter | per circuit breaker transition an attempt caused or saw | `courier.target`, `courier.circuit.to` (`open`, `halfOpen`, `closed`) |
/// | `courier.client.retry.refusals` | counter | per retry asked for but not made | `courier.target`, `http.request.method`, `courier.refusal` (`retryBudget`, `deadline`) |
/// | `courier.client.refreshes` | counter | per credential refresh or sign-in an ``AuthenticationInterceptor`` of the provider ran (once however many requests waited) | `courier.target`, `courier.refresh.kind` (`refresh`, `signIn`), `outcome` (`success`, `failure`) |
///
/// An attempt is one HTTP request as OpenTelemetry counts them (each resend is another); a
/// redirect Courier follows within an attempt is part of it. Retries and reauthentications are
/// told apart by each attempt's ``AttemptMetrics/retryReason``: a resend after a 401 and a
/// refresh is not a failure being retried.
///
/// Histogram buckets are the backend's to choose (swift-metrics has no way to suggest them):
/// ``recommendedDurationBuckets`` are the conventions' (swift-otel's default duration buckets
/// are the same, in milliseconds).
///
/// Dimensions are bounded: `courier.target` (``RequestLabels/target(_:)``, the target's case
/// name), the method (``RequestLabels/method(_:)``, `_OTHER` beyond RFC 9110's), the server,
/// the status code or class, and `error.type` (``RequestLabels/errorType(_:)``). Never a URL, an
/// identifier or a parameter value.
public struct MetricsPlugin: ObservingPlugin {
    let handles: MetricHandles
    /// Whether the factory is swift-metrics' `NOOPMetricsHandler` (what `MetricsSystem` has until
    /// a backend is bootstrapped): then the plugin records nothing at all.
    let isNoOp: Bool

    /// The bucket boundaries OpenTelemetry's HTTP conventions recommend for
    /// `http.client.request.duration`, in seconds, for a backend's configuration (swift-otel's
    /// `durationHistogramBuckets`, swift-prometheus' duration buckets).
    public static let recommendedDurationBuckets: [Double] = [
        0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ]

    /// Creates the plugin.
    /// - Parameter factory: The metrics backend; the one bootstrapped in `MetricsSystem` by
    ///   default.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.handles = MetricHandles(factory: factory)
        self.isNoOp = factory is NOOPMetricsHandler
    }

    /// Counts the attempt as active until its outcome.
    /// - Parameters:
    ///   - request: The request as it will be sent.
    ///   - target: The target.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        guard !isNoOp, let exchanges = exchanges(target, request.request, request.requestID) else { return }
        handles.beginActive(request.requestID, on: exchanges)
    }

    /// Records the attempt's duration and sizes, and counts it.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        guard !isNoOp else { return }
        // The metrics found when the attempt was transmitted (one that failed before has none).
        let sent = handles.endActive(outcome.requestID)
        let errorType: String?
        switch outcome.result {
        case .success: errorType = nil
        case .failure(let error): errorType = RequestLabels.errorType(error)
        }
        family(target, outcome.request, outcome.requestID).attempts(errorType ?? "success").increment()
        let metrics = outcome.metrics
        if let exchanges = sent ?? exchanges(target, outcome.request, outcome.requestID) {
            let results = exchanges.results(
                .init(statusCode: metrics.statusCode, errorType: errorType, protocolVersion: metrics.protocolVersion))
            results.duration.recordNanoseconds(Int64((metrics.duration * 1e9).rounded()))
            results.requestBodySize.record(metrics.bytesSent)
            results.responseBodySize.record(metrics.bytesReceived)
        }
        for transition in metrics.resilience?.circuitTransitions ?? [] {
            handles.counter(
                "courier.client.circuit.transitions",
                [
                    ("courier.target", handles.names.name(of: target, request: outcome.requestID)),
                    ("courier.circuit.to", transition.to.rawValue),
                ]
            ).increment()
        }
    }

    /// Records the request's count, duration, retries and refusals.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target.
    ///   - metrics: The request's metrics.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        guard !isNoOp else { return }
        defer { handles.names.forget(metrics.requestID) }
        // A cancelled attempt may end without its outcome.
        handles.endActive(metrics.requestID)
        let request: URLRequest?
        let outcome: [(String, String)]
        switch result {
        case .success(let response):
            request = response.request
            outcome = [("http.response.status_class", RequestLabels.statusClass(response.statusCode))]
        case .failure(let error):
            request = error.request
            let type = (Attribute.errorType, RequestLabels.errorType(error))
            outcome =
                error.response.map { [("http.response.status_class", RequestLabels.statusClass($0.statusCode)), type] }
                ?? [type]
        }
        let family = family(target, request, metrics.requestID)
        let results = family.results(outcome)
        results.duration.recordNanoseconds(Int64((metrics.duration * 1e9).rounded()))
        results.count.increment()
        let retries = metrics.attempts.count { $0.retryReason != nil && $0.retryReason != .reauthentication }
        if retries > 0 { family.retries.increment(by: retries) }
        let resends = metrics.attempts.count { $0.retryReason == .reauthentication }
        if resends > 0 { family.reauthentications.increment(by: resends) }
        if let refusal = metrics.attempts.last?.retryRefusal {
            handles.counter(
                "courier.client.retry.refusals",
                [
                    ("courier.target", handles.names.name(of: target, request: metrics.requestID)),
                    (Attribute.method, request.map(RequestLabels.method) ?? "GET"),
                    ("courier.refusal", refusal.description),
                ]
            ).increment()
        }
    }

    /// Counts a credential refresh (or sign-in) that an ``AuthenticationInterceptor`` of the
    /// provider ran: nothing to wire by hand.
    /// - Parameters:
    ///   - refresh: What ran, and whether it obtained a credential.
    ///   - target: The target that started it.
    public func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {
        guard !isNoOp else { return }
        handles.counter(
            "courier.client.refreshes",
            [
                ("courier.target", handles.names.name(of: target)), ("courier.refresh.kind", refresh.kind.rawValue),
                ("outcome", refresh.succeeded ? "success" : "failure"),
            ]
        ).increment()
    }

    /// Counts a credential refresh by hand.
    ///
    /// ```swift
    /// let auth = AuthenticationInterceptor(authenticator: MyAuthenticator(), credential: saved,
    ///     onRefresh: { credential, _ in metrics.recordRefresh(of: API.self) })
    /// ```
    /// - Parameter api: The API whose credential was refreshed.
    @available(
        *, deprecated,
        message:
            "The plugin counts the interceptor's refreshes itself (didRefreshCredential); calling this too counts them twice."
    )
    public func recordRefresh(of api: any TargetType.Type) {
        handles.counter("courier.client.refreshes", [("courier.target", String(describing: api))]).increment()
    }

    private func family(_ target: any TargetType, _ request: URLRequest?, _ id: RequestID) -> MetricHandles.Family {
        let method = request.map { RequestLabels.method($0) } ?? RequestLabels.method(target.method)
        return handles.family(target: handles.names.name(of: target, request: id), method: method)
    }

    /// The per-attempt metrics of the request's target, method and server; `nil` for a request
    /// without a host.
    private func exchanges(_ target: any TargetType, _ request: URLRequest, _ id: RequestID) -> MetricHandles.Exchanges?
    {
        guard let server = RequestLabels.server(of: request.url) else { return nil }
        return handles.exchanges(
            target: handles.names.name(of: target, request: id), method: RequestLabels.method(request), server: server)
    }
}
