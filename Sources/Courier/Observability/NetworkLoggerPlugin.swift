import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Logs each attempt and each request's result, with secrets redacted by default.
///
/// One entry per attempt as it is sent (after the interceptor adapted it, so an added
/// `Authorization` shows, redacted), with its attempt number, and one for the final result (with
/// its total duration and number of attempts), tied together by the request's identifier:
/// ```text
/// Courier: [2026-11-22T11:53:50Z] Request #3 attempt 1: GET https://api.example.com/users
/// Courier: [2026-11-22T11:53:50Z] Request Headers #3: [Accept: application/json, Authorization: ***]
/// Courier: [2026-11-22T11:53:50Z] Response #3: 200 GET https://api.example.com/users (42 ms, 1 attempt)
/// ```
/// A streamed response gets one more entry when its body ends, with what was read, never the
/// content: `Stream #4: completed, 18342 bytes, 57 events in 2140 ms after the head`.
/// Secrets never reach an entry by default (``Configuration/redaction``): a URL's user information,
/// the values of `Authorization`, `Cookie`, `Set-Cookie` and API-key headers, and of credential query
/// items and form or JSON body fields (`access_token`, `password`…) show as `***`. Bodies are cut
/// after ``Configuration/maximumBodyBytes``; binary bodies are summarised, never dumped.
///
/// Send the entries anywhere with ``Configuration/output``, for example to swift-log:
/// ```swift
/// NetworkLoggerPlugin(configuration: .init(output: { _, entries in entries.forEach { logger.info("\($0)") } }))
/// ```
public struct NetworkLoggerPlugin: ObservingPlugin {
    /// What is logged, how, and where.
    public let configuration: Configuration
    private let starts = Locked<[RequestID: Date]>([:])

    /// Creates a logger.
    /// - Parameter configuration: What is logged and where; ``Configuration/init(formatter:output:logOptions:redaction:maximumBodyBytes:clock:)`` defaults by default.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A logger with ``LogOptions/verbose``.
    public static var verbose: NetworkLoggerPlugin {
        NetworkLoggerPlugin(configuration: Configuration(logOptions: .verbose))
    }

    /// Notes when the request started, for the duration of its result entry.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - target: The target being requested.
    public func willSend(_ request: PreparedRequest, target: any TargetType) {
        let now = configuration.clock()
        starts.withLock { starts in
            if starts[request.requestID] == nil { starts[request.requestID] = now }
        }
    }

    /// Logs the attempt as it is sent: after the interceptor adapted it, so the headers an adapter
    /// added show (their secrets redacted).
    /// - Parameters:
    ///   - request: The transmitted request.
    ///   - target: The target being requested.
    public func willTransmit(_ request: PreparedRequest, target: any TargetType) {
        configuration.output(target, attemptEntries(request, target: target, date: configuration.clock()))
    }

    /// Logs what a ``ResiliencePolicy`` did to the attempt, when it did something: the circuit
    /// breaker's transitions (`Circuit #3: https://api.example.com closed → open`), a wait for a
    /// limit or a back-off, hedged copies.
    /// - Parameters:
    ///   - outcome: The attempt's outcome.
    ///   - target: The target being requested.
    public func didCompleteAttempt(_ outcome: AttemptOutcome, target: any TargetType) {
        guard let record = outcome.metrics.resilience else { return }
        let entries = ResilienceLog.entries(record, requestID: outcome.requestID, attempt: outcome.attempt)
        guard !entries.isEmpty else { return }
        let date = configuration.clock()
        configuration.output(target, entries.map { configuration.formatter.entry($0.0, $0.1, target, date) })
    }

    /// Logs the result with its total duration.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target that was requested.
    ///   - metrics: The request's identifier and attempts.
    public func didReceive(
        _ result: Result<Response, CourierError>, target: any TargetType, metrics: RequestMetrics
    ) {
        let now = configuration.clock()
        let start = starts.withLock { $0.removeValue(forKey: metrics.requestID) } ?? now
        let elapsed = now.timeIntervalSince(start)
        let count = metrics.attempts.count
        let timing = "(\(Int((elapsed * 1000).rounded())) ms, \(count) attempt\(count == 1 ? "" : "s"))"
        var entries = resultEntries(
            result, target: target, id: " \(metrics.requestID)", timing: " \(timing)", date: now)
        if case .failure = result, let refusal = metrics.attempts.last?.retryRefusal {
            entries[0] += "; no retry: \(refusal)"
        }
        configuration.output(target, entries)
    }

    /// Logs a result given without metrics, as Moya's logger does in `didReceive(_:target:)`: for
    /// code that calls it directly, on the logger or through `any PluginType`. A provider calls
    /// ``didReceive(_:target:metrics:)``, so a request is logged once.
    /// - Parameters:
    ///   - result: The final result.
    ///   - target: The target that was requested.
    public func didReceive(_ result: Result<Response, CourierError>, target: any TargetType) {
        let date = configuration.clock()
        configuration.output(target, resultEntries(result, target: target, id: "", timing: "", date: date))
    }

    /// Logs the end of a streamed response: how it ended, the bytes and events read and the time
    /// since its head, never its content.
    /// - Parameters:
    ///   - summary: What the stream did.
    ///   - target: The target that was requested.
    public func didFinishStream(_ summary: StreamSummary, target: any TargetType) {
        let ending: String
        switch summary.outcome {
        case .completed: ending = "completed"
        case .stopped: ending = "stopped by the reader"
        case .failed(let error): ending = "failed: \(error.errorDescription(redaction: redaction))"
        }
        var counts = "\(summary.bytes) byte\(summary.bytes == 1 ? "" : "s")"
        if let events = summary.events { counts += ", \(events) event\(events == 1 ? "" : "s")" }
        let time = "\(Int((summary.duration * 1000).rounded())) ms"
        let date = configuration.clock()
        let message = "\(ending), \(counts) in \(time) after the head"
        configuration.output(
            target, [configuration.formatter.entry("Stream \(summary.requestID)", message, target, date)])
    }

    private func attemptEntries(_ prepared: PreparedRequest, target: any TargetType, date: Date) -> [String] {
        let request = prepared.request
        let id = prepared.requestID
        let options = configuration.logOptions
        let entry = { (identifier: String, message: String) in
            configuration.formatter.entry(identifier, message, target, date)
        }
        if options.contains(.formatRequestAscURL) {
            let command = prepared.requestWithSessionHeaders.cURLDescription(
                redaction: configuration.redaction, maximumBodyBytes: configuration.maximumBodyBytes)
            return [entry("Request \(id) attempt \(prepared.attempt)", command)]
        }
        let line = redaction.requestLine(request, includesMethod: options.contains(.requestMethod))
        var entries = [entry("Request \(id) attempt \(prepared.attempt)", line)]
        if options.contains(.requestHeaders) {
            entries.append(entry("Request Headers \(id)", headerList(Self.headers(of: prepared))))
        }
        if options.contains(.requestBody), let source = BodySummary.source(prepared.body) {
            entries.append(entry("Request Body Stream \(id)", source))
        }
        if options.contains(.requestBody), let body = request.httpBody, !body.isEmpty {
            entries.append(
                entry(
                    "Request Body \(id)",
                    bodyText(body, contentType: request.value(forHTTPHeaderField: "Content-Type"), request: true)))
        }
        return entries
    }

    /// The result's entries; `id` and `timing` are appended as they are (empty without metrics).
    private func resultEntries(
        _ result: Result<Response, CourierError>, target: any TargetType, id: String, timing: String, date: Date
    ) -> [String] {
        let entry = { (identifier: String, message: String) in
            configuration.formatter.entry(identifier, message, target, date)
        }
        let response: Response?
        let isError: Bool
        var entries: [String]
        switch result {
        case .success(let success):
            (response, isError) = (success, false)
            entries = [entry("Response\(id)", "\(success.statusCode) \(describe(success, target: target))\(timing)")]
        case .failure(let error):
            (response, isError) = (error.response, true)
            entries = [entry("Error\(id)", "\(error.errorDescription(redaction: redaction))\(timing)")]
        }
        guard let response else { return entries }
        if configuration.logOptions.contains(.responseHeaders), let http = response.response {
            let headers = Dictionary(
                http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }, uniquingKeysWith: { $1 })
            entries.append(entry("Response Headers\(id)", headerList(headers)))
        }
        let wantsBody = configuration.logOptions.contains(isError ? .errorResponseBody : .successResponseBody)
        if wantsBody, !response.data.isEmpty {
            let type = response.response?.value(forHTTPHeaderField: "Content-Type")
            entries.append(entry("Response Body\(id)", bodyText(response.data, contentType: type, request: false)))
        }
        return entries
    }

    var redaction: Redaction { configuration.redaction }

    /// The request line of `response`'s request; without one, the URL it came from, or the
    /// target's, as Moya's logger names a response without a request.
    private func describe(_ response: Response, target: any TargetType) -> String {
        if let request = response.request { return redaction.requestLine(request) }
        return redaction.urlString((response.response?.url ?? target.url).absoluteString)
    }

    /// The request's header fields over the engine's own, names compared without case.
    private static func headers(of prepared: PreparedRequest) -> [String: String] {
        let own = prepared.request.allHTTPHeaderFields ?? [:]
        guard !prepared.sessionHeaders.isEmpty else { return own }
        let names = Set(own.keys.map { $0.lowercased() })
        return own.merging(prepared.sessionHeaders.filter { !names.contains($0.key.lowercased()) }) { mine, _ in mine }
    }

    private func headerList(_ headers: [String: String]) -> String {
        let pairs = headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            "\(redaction.headerName(name)): \(redaction.headerValue(name, value))"
        }
        return "[" + pairs.joined(separator: ", ") + "]"
    }

    func bodyText(_ data: Data, contentType: String?, request: Bool) -> String {
        if BodySummary.isBinary(contentType: contentType) {
            return BodySummary.binary(data, contentType: contentType)
        }
        let limit = max(0, configuration.maximumBodyBytes)
        let redacted = redaction.body(data, contentType: contentType)
        // The formatter gets the whole body (a pretty-printer needs whole JSON), up to a bound
        // that keeps a huge body from being formatted at all; what it returns is then cut.
        let formatted = redacted.count <= Self.formattingLimit ? redacted : Data(redacted.prefix(Self.formattingLimit))
        let format = request ? configuration.formatter.requestData : configuration.formatter.responseData
        let text = Array(format(formatted).utf8)
        let dropped = redacted.count - formatted.count
        guard text.count > limit || dropped > 0 else { return String(decoding: text, as: UTF8.self) }
        // Cut at a character boundary: never half of a UTF-8 sequence.
        var cut = min(limit, text.count)
        while cut > 0, cut < text.count, text[cut] & 0xC0 == 0x80 { cut -= 1 }
        return String(decoding: text[..<cut], as: UTF8.self) + "… (\(text.count - cut + dropped) more bytes)"
    }

    /// The largest body handed whole to a formatter: 1 MiB.
    static let formattingLimit = 1 << 20
}
