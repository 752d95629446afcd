import Foundation

/// The outbox's sender: one task that tries the first waiting entry until it ends, then the next.
extension Outbox {
    /// What one try's result means for its entry.
    enum Verdict {
        /// The entry ends with this outcome.
        case ends(OutboxOutcome<Target>.Kind, Response?, failure: String?)
        /// The entry waits and is tried again; `retryAfter` is what the server asked for.
        case waits(Response?, failure: String, retryAfter: TimeInterval?)
    }

    /// Sends entries until the outbox closes.
    func send() async {
        var failures = 0
        while !Task.isCancelled {
            let generation = work.generation
            let flushes = flushed.generation
            guard let (sequence, data) = store.head() else {
                await work.wait(since: generation)
                continue
            }
            guard let wait = await attempt(sequence, data, failures: failures) else {
                failures = 0
                continue
            }
            failures += 1
            await flushed.wait(since: flushes, atMost: wait, on: provider.clock)
        }
    }

    /// One try of the entry of `sequence`: `nil` when it ended (or cannot be read), else the wait
    /// before the next try.
    private func attempt(_ sequence: UInt64, _ data: Data, failures: Int) async -> TimeInterval? {
        // An entry that cannot be ended now (its outcome not stored: a full disk) is tried
        // again after the wait, as a failure.
        guard var entry = try? OutboxStore.decoder().decode(StoredEntry<Target>.self, from: data) else {
            return end(sequence, size: data.count, unreadable: data) ? nil : delay(failures, retryAfter: nil)
        }
        if let ending = Self.ending(entry, now: provider.clock.date(), options: options) {
            return end(sequence, data.count, entry, ending) ? nil : delay(failures, retryAfter: nil)
        }
        // The try is counted before it is made: a crash during it still counts it.
        entry.attempts += 1
        let counted: Data
        do {
            counted = try Self.encoded(entry)
            try store.rewrite(sequence, size: data.count, counted)
        } catch {
            return delay(failures, retryAfter: nil)
        }
        let result = await provider.perform(entry.target, uploading: upload(of: entry), idempotencyKey: entry.key)
        if Task.isCancelled { return 0 }
        switch Self.verdict(of: result, validation: entry.target.validationType) {
        case .ends(let kind, let response, let failure):
            let ended = end(sequence, counted.count, entry, .ends(kind, response, failure: failure))
            return ended ? nil : delay(failures, retryAfter: nil)
        case .waits(let response, let failure, let retryAfter):
            if let limit = options.maximumAttempts, entry.attempts >= limit {
                let why = "it was tried \(limit) times; the last: \(failure)"
                let ended = end(sequence, counted.count, entry, .ends(.attemptsExhausted, response, failure: why))
                return ended ? nil : delay(failures, retryAfter: nil)
            }
            let wait = delay(failures, retryAfter: retryAfter)
            observe(.waiting(attempt: entry.attempts, seconds: wait), entry.id, entry.target)
            return wait
        }
    }

    /// How `entry` ends before it is tried: expired, or out of tries; `nil` when it is tried.
    private static func ending(_ entry: StoredEntry<Target>, now: Date, options: OutboxOptions) -> Verdict? {
        if let expires = entry.expires, now >= expires {
            return .ends(.expired, nil, failure: "its lifetime passed before it was delivered")
        }
        if let limit = options.maximumAttempts, entry.attempts >= limit {
            return .ends(.attemptsExhausted, nil, failure: "it was tried \(limit) times")
        }
        return nil
    }

    /// A file upload's resumable source (``ResumableUpload``), its state kept beside the queue:
    /// a try after a crash or a lost connection sends the rest of the file, where the server
    /// takes resumable uploads; `nil` for any other task.
    private func upload(of entry: StoredEntry<Target>) -> ResumableUploadSource? {
        guard case .uploadFile(let file) = entry.target.task else { return nil }
        return ResumableUploadSource(content: .file(file), stateDirectory: store.uploads, speaking: .ietfDraft)
    }

    /// The wait after the `failures + 1`th failure in a row.
    private func delay(_ failures: Int, retryAfter: TimeInterval?) -> TimeInterval {
        EventReconnection(delay: options.delay, minimumDelay: 0, maximumDelay: options.maximumDelay).delay(
            beforeAttempt: failures + 1, reconnectionTime: nil,
            retryAfter: retryAfter.map { min($0, options.maximumRetryAfter) }, random: Double.random(in: 0...1))
    }

    /// What `result` means: the answers and failures that are the network's or the moment's keep
    /// the entry; the rest end it. The status decides even when the target's `validation`
    /// accepted it: a 5xx is never taken as delivered, and with ``ValidationType/none`` (Moya's
    /// default, every status accepted) only a 2xx is.
    static func verdict(of result: Result<Response, CourierError>, validation: ValidationType) -> Verdict {
        switch result {
        case .success(let response):
            let status = response.statusCode
            if keeps(status) {
                return .waits(response, failure: "the server answered \(status)", retryAfter: retryAfter(response))
            }
            let accepted = (200..<300).contains(status) || !validation.statusCodes.isEmpty
            return .ends(accepted ? .delivered : .rejected, response, failure: nil)
        case .failure(let error): return verdict(of: error)
        }
    }

    /// Whether an answer of `status` keeps the entry: 401 (the sign-in did not help), 408, 429
    /// and 5xx.
    private static func keeps(_ status: Int) -> Bool {
        [401, 408, 429].contains(status) || (500...599).contains(status)
    }

    private static func retryAfter(_ response: Response) -> TimeInterval? {
        response.headerFields["Retry-After"].flatMap { RetryAfter.delay($0, now: Date()) }
    }

    private static func verdict(of error: CourierError) -> Verdict {
        let failure = error.description
        switch error {
        case .statusCode(let response):
            // 401: the interceptor's sign-in did not help (signed out, offline refresh); the
            // write is not at fault, and waits for a credential.
            guard keeps(response.statusCode) else { return .ends(.rejected, response, failure: nil) }
            return .waits(response, failure: failure, retryAfter: retryAfter(response))
        case .transport(let underlying, _):
            let kind = (underlying as? TransportFailure)?.kind
            if kind == .badURL || kind == .tooManyRedirects { return .ends(.rejected, nil, failure: failure) }
            return .waits(nil, failure: failure, retryAfter: nil)
        case .adaptation, .cancelled:
            // A refresh that failed (offline), or a try cut short: the entry waits.
            return .waits(nil, failure: failure, retryAfter: nil)
        case .underlying(let underlying, let response):
            if underlying is ResilienceError { return .waits(response, failure: failure, retryAfter: nil) }
            if let response { return verdict(of: .statusCode(response)) }
            return .ends(.rejected, nil, failure: failure)
        default:
            return .ends(.rejected, error.response, failure: failure)
        }
    }
}
