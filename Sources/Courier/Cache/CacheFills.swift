import Foundation

/// The network fills of one ``HTTPCache`` in flight: concurrent misses for one key send once.
///
/// A fill runs in a task of its own, so that no one caller's cancellation ends it for the
/// others; it runs until it answers or until its last waiter has left (cancelled, or out of
/// time), and is then cancelled. So a cancelled caller's exchange ends with it, as it does
/// without a cache, and a concurrency limit's place or a breaker's probe returns with the
/// caller. A background validation (`stale-while-revalidate`) has no waiter and runs to its end.
final class CacheFills: Sendable {
    /// A fill's answer, and when it was sent.
    typealias Work = @Sendable () async throws -> CacheStage.Fill

    /// A fill's identity, so that a finished or abandoned fill never removes a newer one, and
    /// its answer, which it hands to its waiters itself: waiting for the fill's task through
    /// another task (what a task's value allows with a caller's own cancellation) cost a task
    /// per miss, about 8,000 instructions (callgrind, Benchmarks/count).
    fileprivate final class Token: Sendable {
        private struct State {
            var answer: Result<CacheStage.Fill, any Error>?
            var waiting: [UInt64: CheckedContinuation<CacheStage.Fill, any Error>] = [:]
            var nextID: UInt64 = 0
        }

        private let state = Locked(State())

        /// The fill's answer, or a cancellation when the waiting task is cancelled first.
        func answer() async throws -> CacheStage.Fill {
            let waiter = state.withLock { state in
                state.nextID += 1
                return state.nextID
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Under the lock the cancellation handler takes, so a cancellation that
                    // came first is never missed.
                    let ready = state.withLock { state -> Result<CacheStage.Fill, any Error>? in
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if let answer = state.answer { return answer }
                        state.waiting[waiter] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                state.withLock { $0.waiting.removeValue(forKey: waiter) }?.resume(throwing: CancellationError())
            }
        }

        /// Keeps the fill's answer and gives it to everyone waiting.
        func finish(_ answer: Result<CacheStage.Fill, any Error>) {
            let waiting = state.withLock { state in
                state.answer = answer
                defer { state.waiting = [:] }
                return state.waiting.values
            }
            for continuation in waiting { continuation.resume(with: answer) }
        }
    }

    /// A fill in flight and how many callers wait for it.
    private struct Entry {
        let token: Token
        let task: Task<CacheStage.Fill, any Error>
        var waiters: Int
    }

    /// One caller's share of a fill: the task, and whether this caller started it.
    struct Share: Sendable {
        fileprivate let key: String?
        fileprivate let token: Token
        fileprivate let task: Task<CacheStage.Fill, any Error>
        let isLeader: Bool
    }

    private let running = Locked<[String: Entry]>([:])

    /// Joins the fill running for `key` when `joining` and there is one; else starts `work` as a
    /// new fill, registered for others to join when `joining`.
    func share(_ key: String, joining: Bool, start work: @escaping Work) -> Share {
        running.withLock { running in
            if joining, var entry = running[key] {
                entry.waiters += 1
                running[key] = entry
                return Share(key: key, token: entry.token, task: entry.task, isLeader: false)
            }
            let (token, task) = start(key, work)
            guard joining else { return Share(key: nil, token: token, task: task, isLeader: true) }
            running[key] = Entry(token: token, task: task, waiters: 1)
            return Share(key: key, token: token, task: task, isLeader: true)
        }
    }

    /// The fill's answer. A caller that stops waiting (cancelled, or out of time) while others
    /// still wait leaves at once; the last one cancels the fill and returns once it has ended,
    /// as a caller without a cache returns once its exchange has, so that what the exchange held
    /// (a concurrency limit's place, a breaker's probe) is free by then.
    func value(of share: Share) async throws -> CacheStage.Fill {
        do {
            return try await share.token.answer()
        } catch {
            if leave(share) { _ = await share.task.result }
            throw error
        }
    }

    /// Starts `work` under `key` unless a fill of that key runs already; nobody waits for it.
    func startInBackground(_ key: String, _ work: @escaping Work) {
        running.withLock { running in
            guard running[key] == nil else { return }
            let (token, task) = start(key, work)
            running[key] = Entry(token: token, task: task, waiters: 0)
        }
    }

    /// How many callers wait for the fill of `key` (0 when none runs), for tests.
    func waiters(forKey key: String) -> Int {
        running.withLock { $0[key]?.waiters ?? 0 }
    }

    /// Waits until the fills in flight now have ended.
    func waitForAll() async {
        for task in running.withLock({ $0.values.map(\.task) }) { _ = await task.result }
    }

    /// One waiter fewer; the last one to leave cancels the fill. Returns whether it did.
    private func leave(_ share: Share) -> Bool {
        guard let key = share.key else {
            share.task.cancel()
            return true
        }
        let abandoned = running.withLock { running -> Bool in
            guard var entry = running[key], entry.token === share.token else { return false }
            entry.waiters -= 1
            guard entry.waiters == 0 else {
                running[key] = entry
                return false
            }
            running[key] = nil
            return true
        }
        if abandoned { share.task.cancel() }
        return abandoned
    }

    /// Runs `work` in a task of its own, which removes its entry of `key` (and no newer one) when
    /// it ends.
    private func start(_ key: String, _ work: @escaping Work) -> (Token, Task<CacheStage.Fill, any Error>) {
        let token = Token()
        let task = Task { [weak self] in
            defer { self?.remove(key, token) }
            do {
                let fill = try await work()
                token.finish(.success(fill))
                return fill
            } catch {
                token.finish(.failure(error))
                throw error
            }
        }
        return (token, task)
    }

    private func remove(_ key: String, _ token: Token) {
        running.withLock { running in
            if running[key]?.token === token { running[key] = nil }
        }
    }
}
