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
/// Entries, with their default levels (swift-log's convention for a library: what happens for
/// every request is `debug` or `trace`, so a service at `info` logs only what needs attention;
/// ``Levels`` changes any of them):
/// - `trace` "attempt sent", for each attempt as it is transmitted (after the interceptor), and
///   `trace` "attempt answered".
/// - `debug` "attempt failed" (a failed attempt may be retried, so it is not an error yet).
/// - The result: `debug` "request succeeded"; `warning` "request rejected" for a status the
///   target does not accept; `debug` "request cancelled"; `error` "request failed" otherwise.
/// - `debug` "credential refreshed" (or signed in), `warning` "credential refresh failed": once per
///   refresh an ``AuthenticationInterceptor`` of the provider ran.
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
    /// The level of each entry.
    ///
    /// ```swift
    /// var levels = LoggingPlugin.Levels()
    /// levels.success = .info   // one line per request at info
    /// let plugin = LoggingPlugin(logger: logger, levels: levels)
    /// ```
    public struct Levels: Sendable, Hashable {
        /// "attempt sent" and "attempt answered"; `trace` by default.
        public var attempt: Logger.Level = .trace
        /// "attempt failed", which may still be retried; `debug` by default.
        public var failedAttempt: Logger.Level = .debug
        /// "request succeeded"; `debug` by default.
        public var success: Logger.Level = .debug
        /// "request rejected", a status the target does not accept; `warning` by default.
        public var rejected: Logger.Level = .warning
        /// "request cancelled"; `debug` by default.
        public var cancelled: Logger.Level = .debug
        /// "request failed", any other failure; `error` by default.
        public var failure: Logger.Level = .error
        /// "credential refreshed" (or signed in); `debug` by default.
        public var refresh: Logger.Level = .debug
        /// "credential refresh failed"; `warning` by default.
        public var refreshFailure: Logger.Level = .warning
        /// "circuit opened", a ``CircuitBreaker`` that starts refusing requests; `warning` by default.
        public var circuitOpened: Logger.Level = .warning
        /// "circuit half-open" and "circuit closed"; `notice` by default.
        public var circuitChanged: Logger.Level = .notice

        /// A WebSocket's message sent or received (its kind and size, never its content);
        /// `trace` by default.
        public var webSocketMessage: Logger.Level = .trace
        /// A WebSocket closed, or opened again; `debug` by default.
        public var webSocketClosed: Logger.Level = .debug
        /// A WebSocket stopped with an error; `warning` by default.
        public var webSocketFailed: Logger.Level = .warning

        /// The defaults, as documented on each level.
        public init() {}
    }

    /// The logger used when no task-bound logger is set.
    public let logger: Logger
    /// What to hide in URLs.
    public let redaction: Redaction
    /// The level of each entry.
    public let levels: Levels

    /// A logger bound to the current task by ``withLogger(_:operation:)``.
    @TaskLocal public static var taskLogger: Logger?

    /// Creates the plugin.
    /// - Parameters:
    ///   - logger: Where entries go, unless a task binds another.
    ///   - redaction: What to hide in URLs; ``Redaction/default`` by default.
    ///   - levels: The level of each entry; ``Levels/init()``'s by default.
    public init(logger: Logger, redaction: Redaction = .default, levels: Levels = Levels()) {
        self.logger = logger
        self.redaction = redaction
        self.levels = levels
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
    func logger(for level: Logger.Level) -> Logger? {
        if let bound = Self.taskLogger { return bound.logLevel <= level ? bound : nil }
        return self.level <= level ? logger : nil
    }

    /// Logs the attempt as it is transmitted.
    /// - Parameters:
    ///   - request: The transmitted request.
    ///   - target: The target.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        guard let logger = logger(for: levels.attempt) else { return }
        var metadata = base(request.requestID, target, request.request)
        metadata["courier.attempt"] = "\(request.attempt)"
        logger.log(level: levels.attempt, "attempt sent", metadata: metadata)
    }

    /// Logs how the attempt ended.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        logCircuit(outcome, target: target)
        let failed: Bool
        if case .failure = outcome.result { failed = true } else { failed = false }
        let level = failed ? levels.failedAttempt : levels.attempt
        guard let logger = logger(for: level) else { return }
        var metadata = base(outcome.requestID, target, outcome.request)
        metadata["courier.attempt"] = "\(outcome.attempt)"
        metadata["courier.duration_ms"] = "\(Self.milliseconds(outcome.metrics.duration))"
        switch outcome.result {
        case .success(let response):
            metadata["http.response.status_code"] = "\(response.statusCode)"
            logger.log(level: level, "attempt answered", metadata: metadata)
        case .failure(let error):
            if let status = error.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            metadata["error.type"] = .string(RequestLabels.errorType(error))
            logger.log(level: level, "attempt failed", metadata: metadata)
        }
    }

    /// Logs each circuit breaker transition the attempt caused or saw, with the scope (an origin,
    /// without a path) and the states.
    private func logCircuit(_ outcome: AttemptOutcome, target: any TargetType) {
        for transition in outcome.metrics.resilience?.circuitTransitions ?? [] {
            let level = transition.to == .open ? levels.circuitOpened : levels.circuitChanged
            guard let logger = logger(for: level) else { continue }
            var metadata = base(outcome.requestID, target, outcome.request)
            metadata["courier.circuit.scope"] = "\(transition.scope)"
            metadata["courier.circuit.from"] = "\(transition.from.rawValue)"
            metadata["courier.circuit.to"] = "\(transition.to.rawValue)"
            let message: Logger.Message =
                switch transition.to {
                case .open: "circuit opened"
                case .halfOpen: "circuit half-open"
                case .closed: "circuit closed"
                }
            logger.log(level: level, message, metadata: metadata)
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
        let (level, message) = entry(for: result)
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

    private func entry(for result: Result<Response, CourierError>) -> (Logger.Level, Logger.Message) {
        switch result {
        case .success: (levels.success, "request succeeded")
        case .failure(.statusCode): (levels.rejected, "request rejected")
        case .failure(.cancelled): (levels.cancelled, "request cancelled")
        case .failure: (levels.failure, "request failed")
        }
    }

    /// Logs a credential refresh (or sign-in) the provider's authentication interceptor ran.
    /// - Parameters:
    ///   - refresh: What ran, and its error if it failed.
    ///   - target: The target that started it.
    public func didRefreshCredential(_ refresh: CredentialRefresh, target: any TargetType) {
        let level = refresh.succeeded ? levels.refresh : levels.refreshFailure
        guard let logger = logger(for: level) else { return }
        var metadata: Logger.Metadata = [
            "courier.target": .string(RequestLabels.target(target)),
            "courier.refresh.kind": .string(refresh.kind.rawValue),
            "courier.duration_ms": "\(Self.milliseconds(refresh.duration))",
        ]
        if let error = refresh.error { metadata["error.type"] = .string(String(describing: type(of: error))) }
        let message: Logger.Message =
            refresh.succeeded
            ? (refresh.kind == .signIn ? "credential signed in" : "credential refreshed") : "credential refresh failed"
        logger.log(level: level, message, metadata: metadata)
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
