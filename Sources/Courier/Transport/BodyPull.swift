import Foundation

/// The chunks of a ``TransportBody`` pulled from an engine that gives them when asked (an engine
/// with backpressure): nothing is buffered, and the transfer goes at the consumer's pace.
final class BodyPull: Sendable {
    private struct State {
        var next: (@Sendable () async throws -> Data?)?
        var onTermination: (@Sendable () -> Void)?
        var peakChunk = 0
    }

    private let state: Locked<State>

    init(next: @escaping @Sendable () async throws -> Data?, onTermination: @escaping @Sendable () -> Void) {
        state = Locked(State(next: next, onTermination: onTermination))
    }

    /// The next chunk; `nil` at the end, or once the consumer stopped.
    func next() async throws -> Data? {
        guard let next = state.withLock({ $0.next }) else { return nil }
        try Task.checkCancellation()
        let chunk = try await withTaskCancellationHandler {
            try await next()
        } onCancel: {
            self.terminate()
        }
        try Task.checkCancellation()
        guard let chunk else {
            finish()
            return nil
        }
        state.withLock { $0.peakChunk = max($0.peakChunk, chunk.count) }
        return chunk
    }

    /// The largest chunk held at once: what a pulled body keeps in memory.
    var peakMemoryBytes: Int { state.withLock { $0.peakChunk } }

    /// The consumer stopped before the end: the engine is told once, and its source released.
    func terminate() {
        let onTermination = state.withLock { state -> (@Sendable () -> Void)? in
            state.next = nil
            return state.onTermination.take()
        }
        onTermination?()
    }

    /// The body ended: nothing to tell the engine.
    private func finish() {
        state.withLock { state in
            state.next = nil
            state.onTermination = nil
        }
    }
}
