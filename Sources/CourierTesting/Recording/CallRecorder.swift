import Courier
import Foundation

/// Collects the ``HookEvent``s of recording plugins, interceptors and transports, in the order
/// they happen. Share one between them, one per test.
///
/// Tests that must act at a given point of a request (cancel it while it is in flight, say) wait
/// for the event instead of sleeping:
/// ```swift
/// let call = provider.request(target) { _ in }
/// #expect(await recorder.wait(for: .send))
/// call.cancel()
/// ```
public final class CallRecorder: Sendable {
    private struct Waiter {
        let predicate: @Sendable ([HookEvent]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var events: [HookEvent] = []
        var waiters: [UInt64: Waiter] = [:]
        var lastWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates an empty recorder.
    public init() {}

    /// Every event so far, in order.
    public var events: [HookEvent] {
        state.withLock { $0.events }
    }

    /// Appends an event and wakes the waiters it satisfies.
    /// - Parameter event: The event.
    public func record(_ event: HookEvent) {
        let satisfied = state.withLock { state -> [Waiter] in
            state.events.append(event)
            let ready = state.waiters.filter { $0.value.predicate(state.events) }
            for id in ready.keys { state.waiters[id] = nil }
            return Array(ready.values)
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
    }

    /// Forgets every event.
    public func reset() {
        state.withLock { $0.events.removeAll() }
    }

    /// Waits until `event` has been recorded `count` times, or until `timeout` seconds pass.
    /// - Parameters:
    ///   - event: The event to wait for.
    ///   - count: How many times it must have been recorded; once by default.
    ///   - timeout: The longest wait in seconds; 10 by default.
    /// - Returns: `true` when the event arrived in time.
    public func wait(for event: HookEvent, count: Int = 1, timeout: TimeInterval = 10) async -> Bool {
        await wait(until: { events in events.count { $0 == event } >= count }, timeout: timeout)
    }

    /// Waits until `predicate` holds for the events recorded so far, or until `timeout` seconds pass.
    /// - Parameters:
    ///   - predicate: The condition on the whole list of events.
    ///   - timeout: The longest wait in seconds; 10 by default.
    /// - Returns: `true` when the condition held in time.
    public func wait(until predicate: @escaping @Sendable ([HookEvent]) -> Bool, timeout: TimeInterval = 10) async
        -> Bool
    {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return await withCheckedContinuation { continuation in
            let holds = state.withLock { state in
                if predicate(state.events) { return true }
                state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                return false
            }
            if holds { return continuation.resume(returning: true) }
            // Started only once the waiter is registered, so it can never expire too early.
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, timeout) * 1_000_000_000))
                self.expire(id)
            }
        }
    }

    private func expire(_ id: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
