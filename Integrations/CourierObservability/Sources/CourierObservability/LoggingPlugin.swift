import Courier
import Foundation
import Logging

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Writes each request's attempts and result to a swift-log `Logger`, as structured metadata.
///
/// ```swift
/// let provider = Provider<GitHub>(plugins: [LoggingPlugin(logger: Logger(label: "github"))])
/// ```
/// Entries, with their levels:
/// - `debug` "attempt sent", for each attempt as it is transmitted (after the interceptor).
/// - `debug` "attempt answered", or `info` "attempt failed" (a failed attempt may be retried, so
///   it is not an error yet).
/// - The result: `info` "request succeeded"; `warning` "request rejected" for a status the target
///   does not accept; `info` "request cancelled"; `error` "request failed" otherwise.
///
/// Metadata keys follow OpenTelemetry's attribute names where one exists: `courier.request_id`,
/// `courier.target` (``RequestLabels/target(_:)``), `courier.attempt`, `http.request.method`,
/// `url.full` (redacted), `http.response.status_code`, `error.type`
/// (``RequestLabels/errorType(_:)``), `courier.duration_ms`, `courier.attempts`,
/// `http.request.body.size`, `http.response.body.size`. URLs are redacted as the built-in logger
/// does (``Redaction``); headers and bodies are never logged.
///
/// The caller's metadata comes through the logger's own metadata and metadata provider, or a
/// logger bound for one operation with ``withLogger(_:operation:)``.
public struct LoggingPlugin: ObservingPlugin {
    /// The logger used when no task-bound logger is set.
    public let logger: Logger
    /// What to hide in URLs.
    public let redaction: Redaction

    /// A logger bound to the current task by ``withLogger(_:operation:)``.
    @TaskLocal public static var taskLogger: Logger?

    /// Creates the plugin.
    /// - Parameters:
    ///   - logger: Where entries go, unless a task binds another.
    ///   - redaction: What to hide in URLs; ``Redaction/default`` by default.
    public init(logger: Logger, redaction: Redaction = .default) {
        self.logger = logger
        self.redaction = redaction
        self.level = logger.logLevel
    }

    /// `logger`'s level, read once: a hook below it returns before doing anything.
    private let level: Logger.Level

    /// Runs `operation` with `logger` (and its metadata, a request ID of the caller's say) used
    /// for every request it sends.
    /// - Parameters:
    ///   - logger: The logger for this operation.
    ///   - operation: The work.
    /// - Returns: What `operation` returns.
    public static func withLogger<Result: Sendable>(
        _ logger: Logger, operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $taskLogger.withValue(logger, operation: operation)
    }

    /// The logger for an entry at `level`, or `nil` when that logger would drop it.
    private func logger(for level: Logger.Level) -> Logger? {
        if let bound = Self.taskLogger { return bound.logLevel <= level ? bound : nil }
        return self.level <= level ? logger : nil
    }

    /// Logs the attempt as it is transmitted.
    /// - Parameters:
    ///   - request: The transmitted request.
    ///   - target: The target.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        guard let logger = logger(for: .debug) else { return }
        var metadata = base(request.requestID, target, request.request)
        metadata["courier.attempt"] = "\(request.attempt)"
        logger.debug("attempt sent", metadata: metadata)
    }

    /// Logs how the attempt ended.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        let failed: Bool
        if case .failure = outcome.result { failed = true } else { failed = false }
        guard let logger = logger(for: failed ? .info : .debug) else { return }
        var metadata = base(outcome.requestID, target, outcome.request)
        metadata["courier.attempt"] = "\(outcome.attempt)"
        metadata["courier.duration_ms"] = "\(Self.milliseconds(outcome.metrics.duration))"
        switch outcome.result {
        case .success(let response):
            metadata["http.response.status_code"] = "\(response.statusCode)"
            logger.debug("attempt answered", metadata: metadata)
        case .failure(let error):
            if let status = error.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            metadata["error.type"] = .string(RequestLabels.errorType(error))
            logger.info("attempt failed", metadata: metadata)
        }
    }

    /// Logs the request's result.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target.
    ///   - metrics: The request's metrics.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        let (level, message) = Self.entry(for: result)
        guard let logger = logger(for: level) else { return }
        let request = (try? result.get())?.request ?? result.failure?.request
        var metadata = base(metrics.requestID, target, request)
        metadata["courier.duration_ms"] = "\(Self.milliseconds(metrics.duration))"
        metadata["courier.attempts"] = "\(metrics.attempts.count)"
        metadata["http.request.body.size"] = "\(metrics.attempts.reduce(0) { $0 + $1.bytesSent })"
        metadata["http.response.body.size"] = "\(metrics.attempts.last?.bytesReceived ?? 0)"
        switch result {
        case .success(let response):
            metadata["http.response.status_code"] = "\(response.statusCode)"
        case .failure(let error):
            if let status = error.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            metadata["error.type"] = .string(RequestLabels.errorType(error))
        }
        logger.log(level: level, message, metadata: metadata)
    }

    private static func entry(for result: Result<Response, CourierError>) -> (Logger.Level, Logger.Message) {
        switch result {
        case .success: (.info, "request succeeded")
        case .failure(.statusCode): (.warning, "request rejected")
        case .failure(.cancelled): (.info, "request cancelled")
        case .failure: (.error, "request failed")
        }
    }

    private func base(_ id: RequestID, _ target: any TargetType, _ request: URLRequest?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "courier.request_id": "\(id.sequence)",
            "courier.target": .string(RequestLabels.target(target)),
            "http.request.method": .string(request?.httpMethod ?? target.method.rawValue),
        ]
        if let url = request?.url ?? URL(string: target.baseURL.absoluteString) {
            metadata["url.full"] = .string(redaction.urlString(url.absoluteString))
        }
        return metadata
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int((seconds * 1000).rounded())
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
