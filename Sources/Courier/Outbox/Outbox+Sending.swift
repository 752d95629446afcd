import Foundation

/// The outbox's sender: one task that tries the first waiting entry until it ends, then the next.
extension Outbox {
    /// What one try's result means for its entry.
    enum Verdict: Sendable {
        /// The entry ends with this outcome.
        case ends(OutboxOutcome<Target>.Kind, Response?, failure: String?)
        /// The entry waits and is tried again; `retryAfter` is what the server asked for.
        case waits(Response?, failure: String, retryAfter: TimeInterval?)
    }

    /// What became of one look at the head of the queue.
    enum Step {
        /// The entry ended (its outcome stored).
        case ended
        /// The entry waits: tried again after this many seconds, or on a flush.
        case retry(after: TimeInterval)
        /// The entry's end is known but its outcome could not be stored (a full disk): storing
        /// it is tried again, never the request.
        case unrecorded(@Sendable () -> Bool)
    }

    /// What the sender carries from one step to the next.
    struct SenderState {
        /// Failed tries (or records not stored) in a row, for the back-off.
        var failures = 0
        /// An outcome known but not yet stored (a full disk): stored again before anything else.
        var unrecorded: (@Sendable () -> Bool)?
    }

    /// What the sender waits for after a step.
    enum Pause {
        /// Nothing waits: a raise of `work` after this generation.
        case idle(since: UInt64)
        /// A back-off: a flush after this generation, or `seconds`.
        case backOff(since: UInt64, seconds: TimeInterval)
        /// Nothing: the next step at once.
        case none
    }

    /// Sends entries until the outbox closes or the app lets go of it: the sender holds the
    /// outbox (`outbox()`, a weak reference) only while it takes a step, never while it waits,
    /// so an outbox let go ends (its queue's lock released) between two tries.
    static func send(
        _ outbox: @escaping @Sendable () -> Outbox?, work: OutboxSignal, flushed: OutboxSignal,
        clock: any ProviderClock
    ) async {
        var sender = SenderState()
        while !Task.isCancelled {
            guard let pause = await step(outbox, &sender) else { return }
            switch pause {
            case .idle(let generation): await work.wait(since: generation)
            case .backOff(let flushes, let seconds): await flushed.wait(since: flushes, atMost: seconds, on: clock)
            case .none: continue
            }
        }
    }

    /// One step of the sender, holding the outbox for its length; `nil` once it was let go.
    private static func step(_ outbox: () -> Outbox?, _ sender: inout SenderState) async -> Pause? {
        guard let outbox = outbox() else { return nil }
        return await outbox.step(&sender)
    }

    /// Looks at the head of the queue and tries it (or stores an outcome not yet stored).
    private func step(_ sender: inout SenderState) async -> Pause {
        let generation = work.generation
        let flushes = flushed.generation
        let step: Step
        if let pending = sender.unrecorded {
            step = await store.perform(pending) ? .ended : .unrecorded(pending)
        } else {
            let store = store
            switch await store.perform({ store.head() }) {
            case .none: return .idle(since: generation)
            case .unreadable: step = .retry(after: delay(sender.failures, retryAfter: nil))
            case .entry(let sequence, let data): step = await attempt(sequence, data, failures: sender.failures)
            }
        }
        switch step {
        case .ended:
            sender = SenderState()
            return .none
        case .retry(let wait):
            sender.failures += 1
            return .backOff(since: flushes, seconds: wait)
        case .unrecorded(let pending):
            (sender.failures, sender.unrecorded) = (sender.failures + 1, pending)
            return .backOff(since: flushes, seconds: delay(sender.failures, retryAfter: nil))
        }
    }

    /// One try of the entry of `sequence`.
    private func attempt(_ sequence: UInt64, _ data: Data, failures: Int) async -> Step {
        guard var entry = try? OutboxStore.decoder().decode(StoredEntry<Target>.self, from: data) else {
            return await ending { self.end(sequence, size: data.count, unreadable: data) }
        }
        if let verdict = Self.ending(entry, now: provider.clock.date(), options: options) {
            return await ending { [entry] in self.end(sequence, data.count, entry, verdict) }
        }
        // The try is counted before it is made: a crash during it still counts it.
        entry.attempts += 1
        let counted: Data
        do {
            counted = try Self.encoded(entry)
            let (store, size) = (store, data.count)
            try await store.perform { () throws(OutboxError) in try store.rewrite(sequence, size: size, counted) }
        } catch {
            return .retry(after: delay(failures, retryAfter: nil))
        }
        // An outcome keeps the start of the answer's body: no more is read (one byte more tells
        // whether it was cut).
        let answer = AnswerLimit(bytes: options.maximumStoredBody + 1)
        let result = await provider.perform(
            entry.target, uploading: upload(of: entry), outboxTry: OutboxTry(key: entry.key, answerLimit: answer))
        if Task.isCancelled { return .retry(after: 0) }
        let verdict = Self.verdict(of: result, validation: entry.target.validationType, now: provider.clock.date())
        switch verdict {
        case .ends:
            return await ending { [entry] in self.end(sequence, counted.count, entry, verdict, cut: answer.wasCut) }
        case .waits(let response, let failure, let retryAfter):
            if let limit = options.maximumAttempts, entry.attempts >= limit {
                let why = "it was tried \(limit) times; the last: \(failure)"
                return await ending { [entry] in
                    self.end(sequence, counted.count, entry, .ends(.attemptsExhausted, response, failure: why))
                }
            }
            let wait = delay(failures, retryAfter: retryAfter)
            await store.perform { [entry] in
                self.observe(.waiting(attempt: entry.attempts, seconds: wait), entry.id, entry.target)
            }
            return .retry(after: wait)
        }
    }

    /// `.ended` when `record` stored the outcome, else the step that stores it again later.
    private func ending(_ record: @escaping @Sendable () -> Bool) async -> Step {
        await store.perform(record) ? .ended : .unrecorded(record)
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
    static func verdict(
        of result: Result<Response, CourierError>, validation: ValidationType, now: Date
    ) -> Verdict {
        switch result {
        case .success(let response):
            let status = response.statusCode
            if keeps(status) {
                let asked = retryAfter(response, now: now)
                return .waits(response, failure: "the server answered \(status)", retryAfter: asked)
            }
            let accepted = (200..<300).contains(status) || !validation.statusCodes.isEmpty
            return .ends(accepted ? .delivered : .rejected, response, failure: nil)
        case .failure(let error): return verdict(of: error, now: now)
        }
    }

    /// Whether an answer of `status` keeps the entry: 401 (the sign-in did not help), 408, 429
    /// and 5xx.
    private static func keeps(_ status: Int) -> Bool {
        [401, 408, 429].contains(status) || (500...599).contains(status)
    }

    /// The wait a response's `Retry-After` asks for, a date read against `now`.
    private static func retryAfter(_ response: Response, now: Date) -> TimeInterval? {
        response.headerFields["Retry-After"].flatMap { RetryAfter.delay($0, now: now) }
    }

    private static func verdict(of error: CourierError, now: Date) -> Verdict {
        let failure = error.description
        switch error {
        case .statusCode(let response):
            // 401: the interceptor's sign-in did not help (signed out, offline refresh); the
            // write is not at fault, and waits for a credential.
            guard keeps(response.statusCode) else { return .ends(.rejected, response, failure: nil) }
            return .waits(response, failure: failure, retryAfter: retryAfter(response, now: now))
        case .transport(let underlying, _):
            let kind = (underlying as? TransportFailure)?.kind
            if kind == .badURL || kind == .tooManyRedirects { return .ends(.rejected, nil, failure: failure) }
            return .waits(nil, failure: failure, retryAfter: nil)
        case .adaptation, .cancelled:
            // A refresh that failed (offline), or a try cut short: the entry waits.
            return .waits(nil, failure: failure, retryAfter: nil)
        case .underlying(let underlying, let response):
            if underlying is ResilienceError { return .waits(response, failure: failure, retryAfter: nil) }
            if let response { return verdict(of: .statusCode(response), now: now) }
            return .ends(.rejected, nil, failure: failure)
        default:
            return .ends(.rejected, error.response, failure: failure)
        }
    }
}
