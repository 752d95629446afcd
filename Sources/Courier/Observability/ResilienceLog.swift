import Foundation

/// The log lines of what a ``ResiliencePolicy`` did to one attempt, for ``NetworkLoggerPlugin``
/// and for add-on loggers.
enum ResilienceLog {
    /// Pairs of an identifier (`Circuit #3`) and a message; none when the policy only let the
    /// attempt through.
    static func entries(_ record: ResilienceRecord, requestID: RequestID, attempt: Int) -> [(String, String)] {
        var entries: [(String, String)] = record.circuitTransitions.map { transition in
            ("Circuit \(requestID)", "\(transition.scope) \(transition.from.rawValue) → \(transition.to.rawValue)")
        }
        var waits: [String] = []
        if record.backOffWait > 0 { waits.append("\(milliseconds(record.backOffWait)) for the server's Retry-After") }
        if record.rateLimitWait > 0 { waits.append("\(milliseconds(record.rateLimitWait)) for the rate limit") }
        if record.queueWait > 0 { waits.append("\(milliseconds(record.queueWait)) for a place (concurrency limit)") }
        if !waits.isEmpty {
            entries.append(("Wait \(requestID) attempt \(attempt)", "waited " + waits.joined(separator: ", ")))
        }
        if record.hedges > 0 {
            let answered = record.answeredBy.map { $0 == 0 ? "the first copy answered" : "hedge \($0) answered" }
            entries.append(
                (
                    "Hedge \(requestID) attempt \(attempt)",
                    "\(record.hedges) hedged cop\(record.hedges == 1 ? "y" : "ies") sent; \(answered ?? "no copy answered")"
                ))
        }
        return entries
    }

    private static func milliseconds(_ seconds: TimeInterval) -> String {
        "\(Int((seconds * 1000).rounded())) ms"
    }
}
