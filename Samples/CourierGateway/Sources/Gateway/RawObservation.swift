import AsyncHTTPClient
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOHTTP1
import Tracing

/// What the Courier route's three plugins write for a request, written by hand for the baseline:
/// an `internal` span for the request and a `client` span per attempt with OpenTelemetry's
/// attributes, the per-attempt duration, body sizes and active-requests meter with the
/// conventions' dimensions, and the per-request count and duration. Metric objects are made once
/// per set of dimensions, as careful hand-written code would.
final class RawObservation: Sendable {
    private let server: (address: String, port: Int)
    private let base: [(String, String)]
    private let active: Meter
    private let attempts: Counter
    private let requestDuration: Metrics.Timer
    private let requests: Counter
    private let byStatus = NIOLockedValueBox<[Int: AttemptMetrics]>([:])

    /// The per-attempt metrics of one status.
    struct AttemptMetrics: Sendable {
        let duration: Metrics.Timer
        let requestBodySize: Recorder
        let responseBodySize: Recorder
    }

    init(upstream: URL) {
        let port = upstream.port ?? (upstream.scheme == "https" ? 443 : 80)
        server = (upstream.host ?? "", port)
        base = [
            ("http.request.method", "GET"), ("server.address", server.address), ("server.port", String(port)),
            ("courier.target", "UpstreamAPI.order"),
        ]
        active = Meter(label: "http.client.active_requests", dimensions: Array(base.prefix(3)))
        let target = [("courier.target", "UpstreamAPI.order"), ("http.request.method", "GET")]
        attempts = Counter(label: "courier.client.attempts", dimensions: target + [("outcome", "success")])
        let outcome = target + [("http.response.status_class", "2xx")]
        requestDuration = Metrics.Timer(
            label: "courier.client.request.duration", dimensions: outcome, preferredDisplayUnit: .seconds)
        requests = Counter(label: "courier.client.requests", dimensions: outcome)
    }

    /// The request's span, named after the target.
    func startRequest(_ tracer: any Tracer) -> any Span {
        let span = tracer.startSpan("UpstreamAPI.order", ofKind: .internal)
        if span.isRecording { span.attributes["courier.target"] = "UpstreamAPI.order" }
        return span
    }

    /// An attempt's client span, with the request's attributes, counted as active.
    func startAttempt(_ tracer: any Tracer, parent: any Span, url: String, resend: Int) -> any Span {
        let span = tracer.startSpan("GET", context: parent.context, ofKind: .client)
        if span.isRecording {
            span.attributes["http.request.method"] = "GET"
            span.attributes["url.full"] = url
            span.attributes["server.address"] = server.address
            span.attributes["server.port"] = server.port
            if resend > 0 {
                span.attributes["http.request.resend_count"] = resend
                span.attributes["courier.retry.reason"] = "failure"
            }
        }
        active.increment()
        return span
    }

    /// Ends an attempt's span and records its metrics.
    func endAttempt(_ span: any Span, response: HTTPClientResponse, started: UInt64, bodySize: Int) {
        active.decrement()
        let status = Int(response.status.code)
        if span.isRecording {
            span.attributes["http.response.status_code"] = status
            span.attributes["network.protocol.version"] =
                response.version.major == 1 ? "1.\(response.version.minor)" : "\(response.version.major)"
            if status >= 400 {
                span.attributes["error.type"] = String(status)
                span.setStatus(SpanStatus(code: .error))
            }
        }
        span.end()
        let metrics = attemptMetrics(status)
        metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
        metrics.requestBodySize.record(0)
        metrics.responseBodySize.record(bodySize)
        if status < 400 { attempts.increment() }
    }

    /// Ends the request's span and records its count and duration (a success).
    func endRequest(_ span: any Span, started: UInt64) {
        if span.isRecording { span.attributes["http.response.status_code"] = 200 }
        span.end()
        requestDuration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started))
        requests.increment()
    }

    private func attemptMetrics(_ status: Int) -> AttemptMetrics {
        byStatus.withLockedValue { known in
            if let metrics = known[status] { return metrics }
            var dimensions =
                base + [("network.protocol.version", "1.1"), ("http.response.status_code", String(status))]
            if status >= 400 { dimensions.append(("error.type", String(status))) }
            let metrics = AttemptMetrics(
                duration: Metrics.Timer(
                    label: "http.client.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds),
                requestBodySize: Recorder(label: "http.client.request.body.size", dimensions: dimensions),
                responseBodySize: Recorder(label: "http.client.response.body.size", dimensions: dimensions))
            known[status] = metrics
            return metrics
        }
    }
}
