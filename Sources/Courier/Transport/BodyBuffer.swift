import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The chunks of a ``TransportBody`` that its consumer has not read yet: in memory up to a limit,
/// then in an unlinked temporary file (nothing is left behind, whatever happens), read back in
/// order, up to a backlog limit for memory and file together: past it the writer is told to stop
/// (the engine cancels the transfer) and the consumer, once it has read what was kept, gets
/// ``StreamingError/Code/backlogTooLarge``. Everything happens under one lock; a consumer waiting
/// for a chunk is resumed by the writer.
final class BodyBuffer: Sendable {
    /// The file that holds what does not fit in memory: unlinked at once, so only its descriptor
    /// keeps it.
    private struct Spill {
        let descriptor: Int32
        var written: Int64 = 0
        var read: Int64 = 0
    }

    private struct State {
        var memory: [Data] = []
        var head = 0
        var memoryBytes = 0
        var peakMemoryBytes = 0
        var peakBacklogBytes = 0
        var spill: Spill?
        var ended = false
        /// Set when a write passed the backlog limit: the body ended there.
        var overflowed = false
        var error: (any Error)?
        var terminated = false
        var waiter: CheckedContinuation<Data?, any Error>?
        var onTermination: (@Sendable () -> Void)?
    }

    /// How much is read back from the file at a time.
    private static let readChunk = 64 << 10

    private let memoryLimit: Int
    /// The most unread bytes, memory and file together, or `nil` for no limit.
    private let backlogLimit: Int?
    private let state = Locked(State())

    init(memoryLimit: Int, backlogLimit: Int? = nil) {
        self.memoryLimit = memoryLimit
        self.backlogLimit = backlogLimit.map { max(memoryLimit, $0) }
    }

    deinit {
        state.withLock { state in
            if let spill = state.spill { _ = systemClose(spill.descriptor) }
        }
    }

    var onTermination: (@Sendable () -> Void)? {
        get { state.withLock { $0.onTermination } }
        set { state.withLock { $0.onTermination = newValue } }
    }

    /// Whether writing more is useless: the consumer stopped, or the backlog passed its limit.
    var isTerminated: Bool { state.withLock { $0.terminated || $0.overflowed } }

    /// The most unread bytes held in memory at once so far.
    var peakMemoryBytes: Int { state.withLock { $0.peakMemoryBytes } }

    /// The most unread bytes held at once so far, in memory and in the file together.
    var peakBacklogBytes: Int { state.withLock { $0.peakBacklogBytes } }

    func write(_ data: Data) {
        guard !data.isEmpty else { return }
        enum Outcome {
            case kept
            case handed(CheckedContinuation<Data?, any Error>)
            case fileFailed
            case overflow((@Sendable () -> Void)?)
        }
        let outcome = state.withLock { state -> Outcome in
            guard !state.ended && !state.terminated else { return .kept }
            if let waiter = state.waiter.take() { return .handed(waiter) }
            let backlog = Self.backlog(state) + data.count
            if let backlogLimit, backlog > backlogLimit {
                state.ended = true
                state.overflowed = true
                state.error = StreamingError.backlogTooLarge(limit: backlogLimit)
                return .overflow(state.onTermination.take())
            }
            state.peakBacklogBytes = max(state.peakBacklogBytes, backlog)
            if state.spill == nil && state.memoryBytes + data.count <= memoryLimit {
                state.memory.append(data)
                state.memoryBytes += data.count
                state.peakMemoryBytes = max(state.peakMemoryBytes, state.memoryBytes)
                return .kept
            }
            return Self.spill(data, into: &state) ? .kept : .fileFailed
        }
        switch outcome {
        case .kept: break
        case .handed(let waiter): waiter.resume(returning: data)
        case .fileFailed: end(with: TransportBodyError.bufferFileFailed)
        // The engine stops the transfer; the consumer reads what was kept, then the error.
        case .overflow(let stop): stop?()
        }
    }

    /// The unread bytes, in memory and in the file.
    private static func backlog(_ state: State) -> Int {
        state.memoryBytes + Int(state.spill.map { $0.written - $0.read } ?? 0)
    }

    /// Ends the body, with `error` or normally; later calls do nothing.
    func end(with error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard !state.ended else { return nil }
            state.ended = true
            state.error = error
            return Self.isDrained(state) ? state.waiter.take() : nil
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The consumer stopped reading: drops what is buffered and, unless the body had ended, tells
    /// the writer once.
    func terminate() {
        let (waiter, handler) = state.withLock { state in
            guard !state.terminated else {
                return (nil, nil) as (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?)
            }
            state.terminated = true
            state.memory = []
            state.memoryBytes = 0
            if let spill = state.spill.take() { _ = systemClose(spill.descriptor) }
            let handler = state.ended ? nil : state.onTermination
            state.onTermination = nil
            return (state.waiter.take(), handler)
        }
        waiter?.resume(throwing: CancellationError())
        handler?()
    }

    /// The next chunk, waiting for one if none is buffered.
    func next() async throws -> Data? {
        switch state.withLock({ Self.take(&$0) }) {
        case .chunk(let data): return data
        case .end: return nil
        case .failure(let error): throw error
        case .wait: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Taken? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let taken = Self.take(&state)
                    if case .wait = taken { state.waiter = continuation }
                    return taken
                }
                switch ready {
                case .chunk(let data)?: continuation.resume(returning: data)
                case .end?: continuation.resume(returning: nil)
                case .failure(let error)?: continuation.resume(throwing: error)
                case .wait?, nil: break
                }
            }
        } onCancel: {
            terminate()
        }
    }

    private enum Taken {
        case chunk(Data)
        case end
        case failure(any Error)
        case wait
    }

    private static func take(_ state: inout State) -> Taken {
        if state.terminated { return .failure(CancellationError()) }
        if state.head < state.memory.count {
            let data = state.memory[state.head]
            state.memory[state.head] = Data()
            state.head += 1
            state.memoryBytes -= data.count
            if state.head == state.memory.count {
                state.memory.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return .chunk(data)
        }
        if state.spill != nil {
            guard let data = readBack(&state) else { return .failure(TransportBodyError.bufferFileFailed) }
            return .chunk(data)
        }
        if state.ended { return state.error.map { .failure($0) } ?? .end }
        return .wait
    }

    private static func isDrained(_ state: State) -> Bool {
        state.head >= state.memory.count && state.spill == nil
    }

    /// Appends `data` to the file, creating it first; `false` when that fails.
    private static func spill(_ data: Data, into state: inout State) -> Bool {
        if state.spill == nil {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-stream-\(UUID().uuidString).part"
            ).path
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return false }
            unlink(path)
            state.spill = Spill(descriptor: descriptor)
        }
        guard var spill = state.spill else { return false }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = pwrite(
                    spill.descriptor, bytes.baseAddress! + offset, bytes.count - offset,
                    off_t(spill.written) + off_t(offset))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        spill.written += Int64(data.count)
        state.spill = spill
        return written
    }

    /// The next chunk of the file; the file is closed once read to the end. `nil` when reading fails.
    private static func readBack(_ state: inout State) -> Data? {
        guard var spill = state.spill else { return nil }
        let count = Int(min(Int64(readChunk), spill.written - spill.read))
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { bytes in
            pread(spill.descriptor, bytes.baseAddress!, count, off_t(spill.read))
        }
        guard read == count else { return nil }
        spill.read += Int64(count)
        if spill.read == spill.written {
            _ = systemClose(spill.descriptor)
            state.spill = nil
        } else {
            state.spill = spill
        }
        return data
    }
}

/// The reading side of a ``TransportBody``: when the last reference to it goes before the body
/// was read to the end, the source is told, and the engine cancels the transfer.
final class BodyConsumer: Sendable {
    /// Where the chunks come from.
    enum Source: Sendable {
        /// Written by the engine, buffered until read.
        case buffer(BodyBuffer)
        /// Pulled from the engine when read.
        case pull(BodyPull)
    }

    private let source: Source

    init(_ source: Source) {
        self.source = source
    }

    func next() async throws -> Data? {
        switch source {
        case .buffer(let buffer): try await buffer.next()
        case .pull(let pull): try await pull.next()
        }
    }

    func terminate() {
        switch source {
        case .buffer(let buffer): buffer.terminate()
        case .pull(let pull): pull.terminate()
        }
    }

    var peakMemoryBytes: Int {
        switch source {
        case .buffer(let buffer): buffer.peakMemoryBytes
        case .pull(let pull): pull.peakMemoryBytes
        }
    }

    var peakBacklogBytes: Int {
        switch source {
        case .buffer(let buffer): buffer.peakBacklogBytes
        case .pull(let pull): pull.peakMemoryBytes
        }
    }

    deinit {
        terminate()
    }
}

/// One iteration of a ``TransportBody``: a body is read once, so an iteration that ends before
/// the end of the body (a `break`, a thrown error) ends the transfer.
final class BodyIteration: Sendable {
    private let consumer: BodyConsumer

    init(_ consumer: BodyConsumer) {
        self.consumer = consumer
    }

    func next() async throws -> Data? {
        try await consumer.next()
    }

    deinit {
        consumer.terminate()
    }
}
