import AsyncHTTPClient
import Courier
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The end of one exchange's total timeout. AsyncHTTPClient's own deadline ends when the head
/// arrives; this one also covers the body, with one ``DeadlineTimer`` per exchange that cancels
/// whatever part of the exchange is running when it fires.
struct ExchangeDeadline: Sendable {
    /// When the exchange must be over, or `nil` for no limit.
    let instant: NIODeadline?
    /// The timer, when there is a limit.
    private let timer: DeadlineTimer?

    /// The deadline `timeout` seconds from now (clamped to 0…10⁹), its timer on `timers`.
    init(_ timeout: TimeInterval?, timers: DeadlineTimers) {
        let seconds = timeout.map { $0 > 0 ? min($0, 1e9) : 0 }
        instant = seconds.map { NIODeadline.now() + .nanoseconds(Int64($0 * 1_000_000_000)) }
        timer = seconds.map { DeadlineTimer(after: $0, on: timers) }
    }

    /// The deadline for `HTTPClient.execute`.
    var nio: NIODeadline { instant ?? .distantFuture }

    /// Runs `work`, ended with `TransportFailure.Kind.timedOut` when the deadline passes.
    func run<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard let timer else { return try await work() }
        return try await timer.run(work)
    }

    /// Runs `work` on the caller's task, `cancel` called when the deadline passes while it runs (or
    /// at once when it passed before), and the failure that follows reported as
    /// `TransportFailure.Kind.timedOut`: for an engine task that can be cancelled from outside.
    func guarding<Value: Sendable>(
        cancel: @escaping @Sendable () -> Void, _ work: () async throws -> Value
    ) async throws -> Value {
        guard let timer else { return try await work() }
        return try await timer.guarding(cancel: cancel, work)
    }

    /// Stops the timer: the exchange is over, and must not hold a timer until its deadline.
    func end() {
        timer?.stop()
    }
}
