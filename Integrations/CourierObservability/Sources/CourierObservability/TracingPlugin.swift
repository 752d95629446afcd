import Courier
import Foundation
import Tracing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A span per request and a client span per attempt, through swift-distributed-tracing, with
/// the trace context injected into each attempt's headers.
///
/// It is a plugin and an interceptor: the plugin hooks open and close the spans, and its
/// ``adapt(_:context:)`` injects the attempt's context (W3C `traceparent` with an OpenTelemetry
/// tracer), the one point where each attempt's request can change. Give it to the provider both
/// ways; in a composite, put it among the `interceptors` (its retry never decides):
/// ```swift
/// let tracing = TracingPlugin()   // the tracer bootstrapped in InstrumentationSystem
/// let provider = Provider<GitHub>(
///     plugins: [tracing], interceptor: Interceptor(interceptors: [tracing, .retryPolicy]))
/// ```
///
/// The shape follows OpenTelemetry's HTTP client semantic conventions (the attribute names come
/// from swift-otel-semantic-conventions): every attempt, the first and each resend, is a `client`
/// span named after the method, with `http.request.method` (and `http.request.method_original`
/// for a method outside RFC 9110's), `url.full` (redacted), `server.address`, `server.port`,
/// `http.response.status_code`, `network.protocol.version` (when the engine reports it),
/// `http.request.resend_count` (from the second attempt) and, on failure, `error.type` and an
/// error status. The request is an `internal` span named after the target
/// (``RequestLabels/target(_:)``), parent of its attempts and child of the task's current
/// context, so retries, redirects followed inside an attempt and refreshes stay under one
/// operation. A cancelled request ends its spans with `error.type` `cancelled`.
///
/// Courier's own attributes have the `courier.` prefix: `courier.target` on the request's span;
/// on an attempt's, `courier.retry.reason` (why a resend was made: `failure`,
/// `reauthentication`…), `courier.cache.outcome` (when the provider's cache answered or was
/// asked) and `courier.circuit.state` (the state a circuit breaker moved to during the attempt).
/// An attempt a resilience policy refused before sending has the refusal as its `error.type`
/// (`circuitOpen`, `rateLimited`…).
public final class TracingPlugin: ObservingPlugin, RequestInterceptor, @unchecked Sendable {
    // @unchecked Sendable: `open` is read and written only while holding `lock`; `tracer` and
    // `redaction` are immutable and Sendable.
    private let tracer: any Tracer
    private let redaction: Redaction
    private let lock = NSLock()
    private var open: [RequestID: OpenSpans] = [:]
    private let names = TargetNames()
    /// Whether the tracer is swift-distributed-tracing's `NoOpTracer` (what `InstrumentationSystem`
    /// has until a tracer is bootstrapped): then the plugin does nothing at all.
    private let isNoOp: Bool

    private struct OpenSpans {
        let request: any Span
        var attempt: (any Span)?
    }

    /// Creates the plugin.
    /// - Parameters:
    ///   - tracer: The tracer; the one bootstrapped in `InstrumentationSystem` by default.
    ///   - redaction: What to hide in `url.full`; ``Redaction/default`` by default.
    public init(tracer: any Tracer = InstrumentationSystem.tracer, redaction: Redaction = .default) {
        self.tracer = tracer
        self.redaction = redaction
        self.isNoOp = tracer is NoOpTracer
    }

    /// Opens the request's span before its first attempt.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - target: The target.
    public func willSend(_ request: PreparedRequest, target: any TargetType) {
        guard !isNoOp else { return }
        _ = requestSpan(request.requestID, target)
    }

    /// `true`: injecting the context waits for nothing, so the provider runs it without a time
    /// limit around it.
    public var boundsItsWaits: Bool { true }

    /// Opens the attempt's client span and injects its context into the request's headers.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The attempt's context.
    /// - Returns: The request with the trace context headers.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard !isNoOp else { return request }
        let parent = requestSpan(context.requestID, context.target)
        let span = tracer.startSpan(RequestLabels.method(request), context: parent.context, ofKind: .client)
        if span.isRecording { describe(span, request, context) }
        let stale = lock.withLock { () -> (any Span)? in
            let previous = open[context.requestID]?.attempt
            open[context.requestID]?.attempt = span
            return previous
        }
        stale?.end()
        var injected = request
        tracer.inject(span.context, into: &injected, using: URLRequestInjector())
        return injected
    }

    /// The attempt's attributes, set only when the span records them.
    private func describe(_ span: any Span, _ request: URLRequest, _ context: RequestContext) {
        let method = RequestLabels.method(request)
        span.attributes[Attribute.method] = method
        if method == "_OTHER" { span.attributes[Attribute.methodOriginal] = request.httpMethod ?? "" }
        if let url = request.url { span.attributes[Attribute.urlFull] = redaction.urlString(url.absoluteString) }
        if let server = RequestLabels.server(of: request.url) {
            span.attributes[Attribute.serverAddress] = server.address
            span.attributes[Attribute.serverPort] = server.port
        }
        if context.attempt > 1 { span.attributes[Attribute.resendCount] = context.attempt - 1 }
        if let reason = context.retryReason { span.attributes["courier.retry.reason"] = reason.description }
    }

    /// Ends the attempt's span with its status code or error.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        guard !isNoOp else { return }
        let span = lock.withLock { () -> (any Span)? in
            defer { open[outcome.requestID]?.attempt = nil }
            return open[outcome.requestID]?.attempt
        }
        guard let span else { return }
        if span.isRecording { Self.record(outcome.metrics, on: span) }
        Self.finish(span, with: outcome.result)
    }

    /// What the engine, the cache and the resilience policy recorded about the attempt.
    private static func record(_ metrics: AttemptMetrics, on span: any Span) {
        if let version = metrics.protocolVersion { span.attributes[Attribute.protocolVersion] = version }
        if let cache = metrics.cacheOutcome {
            span.attributes["courier.cache.outcome"] = RequestLabels.cacheOutcome(cache)
        }
        if let state = metrics.resilience?.circuitTransitions.last?.to {
            span.attributes["courier.circuit.state"] = state.rawValue
        }
    }

    /// Ends the request's span (and an attempt's span left open by a cancellation).
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target.
    ///   - metrics: The request's metrics.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        guard !isNoOp else { return }
        let spans = lock.withLock { open.removeValue(forKey: metrics.requestID) }
        if let attempt = spans?.attempt { Self.finish(attempt, with: result) }
        let span = spans?.request ?? tracer.startSpan(names.name(of: target), ofKind: .internal)
        Self.finish(span, with: result)
    }

    private func requestSpan(_ id: RequestID, _ target: any TargetType) -> any Span {
        lock.withLock {
            if let spans = open[id] { return spans.request }
            let name = names.name(of: target)
            let span = tracer.startSpan(name, ofKind: .internal)
            if span.isRecording { span.attributes["courier.target"] = name }
            open[id] = OpenSpans(request: span)
            return span
        }
    }

    private static func finish(_ span: any Span, with result: Result<Response, CourierError>) {
        guard span.isRecording else { return span.end() }
        switch result {
        case .success(let response):
            span.attributes[Attribute.statusCode] = response.statusCode
        case .failure(let error):
            if let status = error.response?.statusCode { span.attributes[Attribute.statusCode] = status }
            span.attributes[Attribute.errorType] = RequestLabels.errorType(error)
            span.setStatus(SpanStatus(code: .error, message: error.stage.rawValue))
        }
        span.end()
    }
}
