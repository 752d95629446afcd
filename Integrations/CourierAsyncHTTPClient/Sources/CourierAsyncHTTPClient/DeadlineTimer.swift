import AsyncHTTPClient
import Courier
import NIOConcurrencyHelpers

/// The timer of an ``ExchangeDeadline``: a limit on the transport's ``DeadlineTimers`` that, when
/// it fires, cancels the part of the exchange running in ``run(_:)`` and makes every later part
/// fail at once.
///
/// One limit for the whole exchange, instead of racing each part against a sleeping task in a task
/// group, which cost two child tasks and a sleep per part (per chunk of a streamed body); and on the
/// transport's shared timers rather than a task scheduled on an event loop, which woke that loop's
/// thread twice per request (scheduling and cancelling from another thread write to its eventfd:
/// about a tenth of a gateway's CPU under load, `perf`, Benchmarks/README). What remains is the
/// part's own task, which AsyncHTTPClient's API needs (only a task's cancellation ends a body read).
final class DeadlineTimer: Sendable {
    private struct State {
        /// Whether the deadline has passed.
        var fired = false
        /// Cancels the part of the exchange that is running, if one is.
        var cancelRunning: (@Sendable () -> Void)?
    }

    private let state: NIOLockedValueBox<State>
    private let timers: DeadlineTimers
    private let token: DeadlineTimers.Token

    /// A timer that fires `seconds` from now on `timers`.
    init(after seconds: Double, on timers: DeadlineTimers) {
        let state = NIOLockedValueBox(State())
        self.state = state
        self.timers = timers
        // The limit holds the state, not the timer: a stopped limit releases it at once.
        token = timers.schedule(after: seconds) { Self.fire(state) }
    }

    /// Runs `work` in a task of its own, which the timer cancels when it fires; the caller's task
    /// is never cancelled by it. The work's task inherits the caller's priority and task-local
    /// values, and is cancelled with the caller.
    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = Task { try await work() }
        let expired = state.withLockedValue { state in
            if !state.fired { state.cancelRunning = { task.cancel() } }
            return state.fired
        }
        if expired { task.cancel() }
        defer { state.withLockedValue { $0.cancelRunning = nil } }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            // The work failed because the timer cancelled it (or ended as the deadline passed).
            if state.withLockedValue({ $0.fired }) {
                throw TransportFailure(kind: .timedOut, underlyingError: HTTPClientError.deadlineExceeded)
            }
            throw error
        }
    }

    /// Runs `work` on the caller's task; when the timer fires while it runs (or fired before),
    /// `cancel` ends it, and its failure is reported as `TransportFailure.Kind.timedOut`. No task of
    /// its own: for work that can be cancelled from outside (AsyncHTTPClient's delegate API).
    func guarding<Value: Sendable>(
        cancel: @escaping @Sendable () -> Void, _ work: () async throws -> Value
    ) async throws -> Value {
        let expired = state.withLockedValue { state in
            if !state.fired { state.cancelRunning = cancel }
            return state.fired
        }
        if expired { cancel() }
        defer { state.withLockedValue { $0.cancelRunning = nil } }
        do {
            return try await work()
        } catch {
            if state.withLockedValue({ $0.fired }) {
                throw TransportFailure(kind: .timedOut, underlyingError: HTTPClientError.deadlineExceeded)
            }
            throw error
        }
    }

    /// Cancels the limit.
    func stop() {
        timers.cancel(token)
    }

    private static func fire(_ state: NIOLockedValueBox<State>) {
        let cancel = state.withLockedValue { state in
            state.fired = true
            defer { state.cancelRunning = nil }
            return state.cancelRunning
        }
        cancel?()
    }
}
