import Dispatch

/// Many time limits behind one timer: what each limit of a provider's requests fires through, so
/// that a limit costs a lock and a heap insertion instead of a timer of its own. Public for
/// engines: a ``Transport`` that enforces ``TransportRequest/timeout`` itself keeps one and
/// schedules each exchange's limit on it, as URLSessionTransport and AsyncHTTPClientTransport do.
///
/// ```swift
/// let timers = DeadlineTimers()   // one per transport, kept as long as it lives
/// let exchange = Task { try await Task.sleep(for: .seconds(60)) }   // the engine's work
/// let limit = timers.schedule(after: 30) { exchange.cancel() }
/// _ = await exchange.result
/// timers.cancel(limit)
/// ```
///
/// A `DispatchSource` timer per limit (what `TimeLimit` made for every `adapt` of a request with a
/// total timeout) wakes libdispatch's manager thread when it is made, resumed and cancelled: about
/// a tenth of a gateway's CPU under load (`perf`, Benchmarks/README). Here one source is armed for
/// the earliest deadline and rescheduled only when a new deadline comes before it or when it
/// fires; a cancelled limit is only forgotten, and its entry leaves the heap when it comes up (or
/// when stale entries outnumber live ones, so memory stays bounded by the limits in flight).
public final class DeadlineTimers: Sendable {
    /// A scheduled limit, to cancel it.
    public struct Token: Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        /// When it is due, in `DispatchTime` uptime nanoseconds.
        let due: UInt64
        let id: UInt64
    }

    /// The timer source.
    private struct Source: @unchecked Sendable {
        // Safe: libdispatch objects may be used from any thread, and this one is scheduled and
        // cancelled only with the state locked. (swift-corelibs-libdispatch does not mark its
        // protocols `Sendable`.)
        let timer: any DispatchSourceTimer
    }

    private struct State: Sendable {
        /// A binary min-heap of entries by `due`, cancelled ones included.
        var heap: [Entry] = []
        /// The actions of the limits still scheduled.
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// What the source is armed for (`UInt64.max`: nothing).
        var armed = UInt64.max
        /// The source, made when the first limit is scheduled.
        var source: Source?
    }

    private let state = Locked(State())

    /// Creates the timers; the timer source is made when the first limit is scheduled.
    public init() {}

    deinit {
        state.withLock { $0.source?.timer.cancel() }
    }

    /// Calls `action` once, `seconds` from now (at most 10⁹ seconds; a negative or
    /// NaN delay is 0), on a libdispatch thread, unless cancelled first.
    /// - Parameters:
    ///   - seconds: The delay.
    ///   - action: What to do then; keep it short, as every limit due at once runs in turn.
    /// - Returns: The token that cancels it.
    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> Token {
        let clamped = seconds > 0 ? min(seconds, Delay.maximumSeconds) : 0
        let due = DispatchTime.now().uptimeNanoseconds &+ UInt64(clamped * 1_000_000_000)
        return state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            state.actions[id] = action
            Self.push(Entry(due: due, id: id), into: &state.heap)
            if state.heap.count > 64, state.heap.count > 2 * state.actions.count { Self.compact(&state) }
            if due < state.armed { arm(&state, for: due) }
            return Token(id: id)
        }
    }

    /// Forgets a limit that has not fired (its action is released at once); nothing for one that
    /// has.
    /// - Parameter token: The limit's token.
    public func cancel(_ token: Token) {
        state.withLock { _ = $0.actions.removeValue(forKey: token.id) }
    }

    /// The number of limits scheduled and not yet fired or cancelled, and of entries in the heap
    /// (for tests).
    var counts: (scheduled: Int, entries: Int) { state.withLock { ($0.actions.count, $0.heap.count) } }

    /// Arms the source (made now if needed) for `due`. Called with the state locked, so arming
    /// happens in the order the deadlines were decided.
    private func arm(_ state: inout State, for due: UInt64) {
        state.armed = due
        let source: any DispatchSourceTimer
        if let made = state.source {
            source = made.timer
        } else {
            source = DispatchSource.makeTimerSource(queue: .global())
            source.setEventHandler { [weak self] in self?.fire() }
            source.schedule(deadline: .distantFuture)
            source.resume()
            state.source = Source(timer: source)
        }
        source.schedule(deadline: due == .max ? .distantFuture : DispatchTime(uptimeNanoseconds: due))
    }

    /// Runs every due action, then arms the source for the earliest one left.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            while let top = state.heap.first, top.due <= now || state.actions[top.id] == nil {
                Self.popFirst(&state.heap)
                if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
            }
            arm(&state, for: state.heap.first?.due ?? .max)
            return due
        }
        for action in due { action() }
    }

    /// Rebuilds the heap from the limits still scheduled.
    private static func compact(_ state: inout State) {
        let live = state.heap.filter { state.actions[$0.id] != nil }
        state.heap = []
        for entry in live { push(entry, into: &state.heap) }
    }

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popFirst(_ heap: inout [Entry]) {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
