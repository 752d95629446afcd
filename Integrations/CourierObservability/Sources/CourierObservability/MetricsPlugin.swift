import Courier
import Foundation
import Metrics

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records each request's count, duration, attempts, retries and body sizes through
/// swift-metrics, labelled by bounded dimensions only.
///
/// ```swift
/// let metrics = MetricsPlugin()   // the factory bootstrapped in MetricsSystem
/// let provider = Provider<GitHub>(plugins: [metrics])
/// ```
/// | Metric | Kind | When | Dimensions |
/// |---|---|---|---|
/// | `http.client.request.duration` | timer | per request | target, method, status class or `error.type` |
/// | `courier.client.requests` | counter | per request | the same |
/// | `courier.client.attempts` | counter | per attempt | target, method, `outcome` (`success` or the `error.type`) |
/// | `courier.client.retries` | counter | per request that was retried after a failure, by the number of those retries | target, method |
/// | `courier.client.reauthentications` | counter | per request sent again with a refreshed credential after an authentication failure, by the number of resends | target, method |
/// | `http.client.request.body.size`, `http.client.response.body.size` | recorder, bytes | per request | target, method |
/// | `courier.client.circuit.transitions` | counter | per circuit breaker transition an attempt caused or saw | target, `courier.circuit.to` (`open`, `halfOpen`, `closed`) |
/// | `courier.client.retry.refusals` | counter | per retry asked for but not made | target, method, `courier.refusal` (`retryBudget`, `deadline`) |
/// | `courier.client.refreshes` | counter | per credential refresh or sign-in an ``AuthenticationInterceptor`` of the provider ran (once however many requests waited) | target, `courier.refresh.kind` (`refresh`, `signIn`), `outcome` (`success`, `failure`) |
///
/// Retries and reauthentications are told apart by each attempt's ``AttemptMetrics/retryReason``:
/// a resend after a 401 and a refresh is not a failure being retried.
///
/// Dimensions: `courier.target` (``RequestLabels/target(_:)``, the target's case name),
/// `http.request.method` (``RequestLabels/method(_:)``), `http.response.status_class` (`2xx`…)
/// and `error.type` (``RequestLabels/errorType(_:)``). Never a URL, an identifier or a parameter
/// value. The two OpenTelemetry names (`http.client.request.duration`, the body sizes) follow its
/// HTTP client conventions; the others have no OpenTelemetry counterpart and are Courier's.
public struct MetricsPlugin: ObservingPlugin {
    private let handles: MetricHandles
    /// Whether the factory is swift-metrics' `NOOPMetricsHandler` (what `MetricsSystem` has until
    /// a backend is bootstrapped): then the plugin records nothing at all.
    private let isNoOp: Bool

    /// Creates the plugin.
    /// - Parameter factory: The metrics backend; the one bootstrapped in `MetricsSystem` by
    ///   default.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.handles = MetricHandles(factory: factory)
        self.isNoOp = factory is NOOPMetricsHandler
    }

    /// Counts the attempt.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        guard !isNoOp else { return }
        let result: String
        switch outcome.result {
        case .success: result = "success"
        case .failure(let error): result = RequestLabels.errorType(error)
        }
        family(target, outcome.request, outcome.requestID).attempts(result).increment()
        for transition in outcome.metrics.resilience?.circuitTransitions ?? [] {
            handles.counter(
                "courier.client.circuit.transitions",
                [
                    ("courier.target", handles.names.name(of: target, request: outcome.requestID)),
                    ("courier.circuit.to", transition.to.rawValue),
                ]
            ).increment()
        }
    }

    /// Records the request's count, duration, retries and sizes.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target.
    ///   - metrics: The request's metrics.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        guard !isNoOp else { return }
        defer { handles.names.forget(metrics.requestID) }
        let request: URLRequest?
        let outcome: [(String, String)]
        switch result {
        case .success(let response):
            request = response.request
            outcome = [("http.response.status_class", RequestLabels.statusClass(response.statusCode))]
        case .failure(let error):
            request = error.request
            let type = ("error.type", RequestLabels.errorType(error))
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
                    ("http.request.method", request.map(RequestLabels.method) ?? "GET"),
                    ("courier.refusal", refusal.description),
                ]
            ).increment()
        }
        family.requestBodySize.record(metrics.attempts.reduce(0) { $0 + $1.bytesSent })
        family.responseBodySize.record(metrics.attempts.last?.bytesReceived ?? 0)
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
}
