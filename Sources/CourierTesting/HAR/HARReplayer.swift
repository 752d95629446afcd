import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers from a HAR file instead of the network: put it where the provider's
/// engine goes, and the whole pipeline (plugins, interceptor, cache, redirects, validation) runs as
/// it did when the file was recorded, offline and in milliseconds.
///
/// ```swift
/// let replayer = try HARReplayer(file: fixtures.appendingPathComponent("user.har"))
/// let github = Provider<GitHub>(transport: replayer)
/// ```
/// It reads HAR 1.2 files from any tool (a browser's export, a ``HARRecorder``'s). A request is
/// answered by the first recorded entry that matches it by ``HARMatching`` (the method and the
/// URL by default), each entry once unless the order is ``ReplayOrder/firstMatch``. A request no
/// entry matches fails with ``HARReplayError/unmatched(request:nearest:)``, which names the nearest
/// entries and how each differs. An entry recorded without an answer (status 0) fails as it did.
/// A recorded text is answered in the charset its content type names, and must have the recorded
/// size (``HARReplayError/bodySizeMismatch(request:size:bytes:charset:)``).
/// Faults can replace an answer (``inject(_:atExchange:)``).
public final class HARReplayer: Transport, Sendable {
    private struct State {
        var used: Set<Int> = []
        var exchanges = 0
        var faults: [Int: Fault] = [:]
        var unmatched: [HARReplayError] = []
    }

    let entries: [HAR.Entry]
    /// How requests are matched to entries.
    public let matching: HARMatching
    /// Which entry answers when several match.
    public let order: ReplayOrder
    /// How long answers take.
    public let timing: ReplayTiming
    /// The redaction the file was recorded with, applied to requests before they are matched.
    public let redaction: Redaction
    private let state = Locked(State())

    /// Creates a replayer of the HAR file at `file`.
    /// - Parameters:
    ///   - file: A HAR 1.2 file.
    ///   - matching: How requests are matched to entries; the method and the URL by default.
    ///   - order: Which entry answers when several match; each once, in order, by default.
    ///   - timing: How long answers take; at once by default.
    ///   - redaction: The redaction the file was recorded with; `Redaction.default` by default.
    /// - Throws: ``HARReplayError/unreadable(_:reason:)`` when the file cannot be read.
    public convenience init(
        file: URL, matching: HARMatching = .default, order: ReplayOrder = .inOrder, timing: ReplayTiming = .none,
        redaction: Redaction = .default
    ) throws(HARReplayError) {
        self.init(
            entries: try HARArchive.read(file), matching: matching, order: order, timing: timing, redaction: redaction)
    }

    init(entries: [HAR.Entry], matching: HARMatching, order: ReplayOrder, timing: ReplayTiming, redaction: Redaction) {
        self.entries = entries
        self.matching = matching
        self.order = order
        self.timing = timing
        self.redaction = redaction
    }

    /// Everything a provider may ask of an engine, timeouts aside (the provider enforces them).
    public var capabilities: TransportCapabilities { [.requestOptions, .repeatedHeaderFields, .webSocket] }

    /// How many entries the file has.
    public var entryCount: Int { entries.count }

    /// How many entries have answered (with ``ReplayOrder/inOrder``, each counts once).
    public var playedCount: Int { state.withLock { $0.used.count } }

    /// The requests no entry matched so far, with why.
    public var unmatched: [HARReplayError] { state.withLock { $0.unmatched } }

    /// Replaces the answer to exchange `number` (from 1, counting every request this replayer is
    /// asked) with `fault`: a status, a refused or lost connection, no answer, a body cut after
    /// some bytes, or the recorded answer late.
    /// - Parameters:
    ///   - fault: The fault.
    ///   - number: The exchange it replaces.
    public func inject(_ fault: Fault, atExchange number: Int) {
        state.withLock { $0.faults[number] = fault }
    }

    /// Answers `request` from the recorded entry that matches it.
    /// - Parameter request: The request.
    /// - Returns: The recorded response, in the request's delivery.
    /// - Throws: ``HARReplayError/unmatched(request:nearest:)``, a recorded failure, or an injected
    ///   fault's.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let redacted = redactedRequest(request.urlRequest)
        let body = matching.body ? try await Self.body(of: request) : nil
        let (found, fault) = try pick(redacted, body: body.map { redaction.body($0, contentType: Self.type(request)) })
        let entry = entries[found]
        if let factor = timing.factor {
            let wait = entry.timings?.wait ?? entry.time
            try await Task.sleep(nanoseconds: UInt64(max(0, wait * factor) * 1_000_000))
        }
        let url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        if entry.failure == nil { try Self.checkBody(of: entry, request: Self.line(redacted)) }
        if let fault { return try await ReplayAnswer.faulted(fault, entry: entry, request: request, url: url) }
        if let failure = entry.failure { throw failure }
        // A socket's recorded messages are played back by a peer that answers as recorded.
        if let upgrade = request.webSocket, entry.response.status == 101 {
            upgrade.accept(HARMessages.peer(entry.webSocketMessages ?? []).makeConnection())
        }
        return try ReplayAnswer.response(entry, to: request, url: url, timing: timing)
    }

    /// Checks that the bytes `entry`'s answer stands for are known and whole: its text encodes in
    /// its charset, and its recorded size agrees.
    private static func checkBody(of entry: HAR.Entry, request line: String) throws(HARReplayError) {
        let body: Data
        do {
            body = try entry.recordedResponseBody()
        } catch {
            guard case .notEncodable(let charset) = error else { return }
            throw .textNotEncodable(request: line, charset: charset)
        }
        let size = entry.response.content.size ?? -1
        let charset = entry.responseCharset
        if entry.courier?.truncated == true || (size > body.count && charset == nil) {
            let whole = max(size, entry.response.bodySize ?? 0)
            throw .bodyNotRecorded(request: line, recorded: body.count, size: whole)
        }
        if size >= 0, size != body.count {
            throw .bodySizeMismatch(request: line, size: size, bytes: body.count, charset: charset)
        }
    }

    /// The entry that answers, and the fault that replaces it, if any.
    private func pick(_ request: URLRequest, body: Data?) throws(HARReplayError) -> (Int, Fault?) {
        let result = state.withLock { state -> Result<(Int, Fault?), HARReplayError> in
            state.exchanges += 1
            let fault = state.faults[state.exchanges]
            let candidates = entries.indices.filter { order == .firstMatch || !state.used.contains($0) }
            let differences = candidates.map { ($0, matching.differences(request, body: body, from: entries[$0])) }
            if let found = differences.first(where: { $0.1.isEmpty })?.0 {
                state.used.insert(found)
                return .success((found, fault))
            }
            // The nearest among every entry, an entry already played said so.
            let all = entries.indices.map { index in
                var reasons = matching.differences(request, body: body, from: entries[index])
                if order == .inOrder, state.used.contains(index) { reasons.append(Self.playedReason) }
                return (index, reasons)
            }
            // Fewest differences first; at equal counts, an entry only played before another.
            let nearest = all.sorted { Self.nearer($0, than: $1) }.prefix(3).map { index, reasons in
                let entry = entries[index].request
                return "#\(index + 1) \(entry.method) \(entry.url): differs in \(reasons.joined(separator: ", "))"
            }
            let error = HARReplayError.unmatched(request: Self.line(request), nearest: Array(nearest))
            state.unmatched.append(error)
            return .failure(error)
        }
        return try result.get()
    }

    /// Whether `lhs` is nearer a request than `rhs`: fewer differences besides having been played,
    /// then not played, then earlier in the file.
    private static func nearer(_ lhs: (Int, [String]), than rhs: (Int, [String])) -> Bool {
        func key(_ entry: (Int, [String])) -> (Int, Int, Int) {
            let played = entry.1.contains(playedReason) ? 1 : 0
            return (entry.1.count - played, played, entry.0)
        }
        return key(lhs) < key(rhs)
    }

    private static let playedReason = "already played"

    /// The request as the file would have it: URL and header values redacted.
    private func redactedRequest(_ request: URLRequest) -> URLRequest {
        var redacted = request
        if let url = request.url, let hidden = URL(string: redaction.urlString(url.absoluteString)) {
            redacted.url = hidden
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            redacted.setValue(redaction.headerValue(name, value), forHTTPHeaderField: name)
        }
        return redacted
    }

    /// `METHOD URL` of a request, for an error.
    private static func line(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "(no URL)")"
    }

    private static func type(_ request: TransportRequest) -> String? {
        request.urlRequest.value(forHTTPHeaderField: "Content-Type")
    }

    /// The request's body, for matching by body (a stream is read; nothing is sent).
    private static func body(of request: TransportRequest) async throws -> Data? {
        switch request.body {
        case .inline: return request.urlRequest.httpBody
        case .file(let url): return try Data(contentsOf: url)
        case .multipart(let form): return try form.encoded()
        case .stream(let stream):
            var data = Data()
            for try await chunk in try stream.chunks() { data.append(chunk) }
            return data
        @unknown default: return nil
        }
    }
}
