import Courier
import Foundation

/// The bytes of a body as it passes, up to a limit, with when each chunk came: what a
/// ``HARRecorder`` keeps of a streamed body.
final class BodyCapture: Sendable {
    private struct State {
        var data = Data()
        var size = 0
        var chunks: [HAR.Chunk] = []
        var truncated = false
        var incomplete = false
    }

    private let limit: Int
    private let start = ContinuousClock.now
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Keeps `chunk` (as much of it as the limit allows) and its time.
    func add(_ chunk: Data) {
        let at = Self.milliseconds(start.duration(to: .now))
        state.withLock { state in
            state.size += chunk.count
            state.chunks.append(HAR.Chunk(at: at, size: chunk.count))
            let room = limit - state.data.count
            if chunk.count > room { state.truncated = true }
            if room > 0 { state.data.append(chunk.prefix(room)) }
        }
    }

    /// Marks the body as ended before its end.
    func markIncomplete() {
        state.withLock { $0.incomplete = true }
    }

    /// What was kept: the bytes, whether some were left out, whether the body ended early, the
    /// chunks, and the size of all that passed.
    var captured: (data: Data, truncated: Bool, incomplete: Bool, chunks: [HAR.Chunk], size: Int) {
        state.withLock { ($0.data, $0.truncated, $0.incomplete, $0.chunks, $0.size) }
    }

    /// `count` bytes of the file at `url`, at most `limit`, and whether there were more.
    static func read(_ url: URL, limit: Int) -> (Data, Bool) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return (Data(), false) }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
        return (data.prefix(limit), data.count > limit)
    }

    /// A duration in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// What a ``HARRecorder`` keeps of a request's body: read before it is sent (in the request, a
/// file, a form), or captured as the engine reads it (a stream).
enum RequestBodyCapture {
    case none
    case known(Data, truncated: Bool)
    case streamed(BodyCapture)

    /// The bytes kept, and whether some were left out.
    var kept: (Data?, Bool) {
        switch self {
        case .none: return (nil, false)
        case .known(let data, let truncated): return (data, truncated)
        case .streamed(let capture):
            let captured = capture.captured
            return (captured.data, captured.truncated)
        }
    }
}

extension HARRecorder {
    /// What to keep of `request`'s body, at most `limit` bytes; a stream body is replaced by one
    /// that gives the same chunks and keeps them as the engine reads them.
    static func capture(_ request: inout TransportRequest, limit: Int) -> RequestBodyCapture {
        switch request.body {
        case .inline:
            guard let body = request.urlRequest.httpBody else { return .none }
            return .known(body.prefix(limit), truncated: body.count > limit)
        case .file(let url):
            let (data, truncated) = BodyCapture.read(url, limit: limit)
            return .known(data, truncated: truncated)
        case .multipart(let form):
            switch try? form.encodedForUpload() {
            case .data(let data)?: return .known(data.prefix(limit), truncated: data.count > limit)
            case .temporaryFile(let url)?:
                defer { try? FileManager.default.removeItem(at: url) }
                let (data, truncated) = BodyCapture.read(url, limit: limit)
                return .known(data, truncated: truncated)
            case nil: return .none
            }
        case .stream(let stream):
            let capture = BodyCapture(limit: limit)
            request.body = .stream(
                UploadStream(length: stream.length, replayable: stream.isReplayable) {
                    StreamedChunks(make: { try stream.chunks() }, capture: capture)
                })
            return .streamed(capture)
        @unknown default:
            return .none
        }
    }
}

/// The chunks of an upload stream made when first read, each also given to a capture.
struct StreamedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let make: @Sendable () throws -> UploadStream.Chunks
    let capture: BodyCapture

    func makeAsyncIterator() -> Iterator {
        Iterator(make: make, capture: capture)
    }

    struct Iterator: AsyncIteratorProtocol {
        let make: @Sendable () throws -> UploadStream.Chunks
        let capture: BodyCapture
        var base: UploadStream.Chunks.AsyncIterator?

        init(make: @escaping @Sendable () throws -> UploadStream.Chunks, capture: BodyCapture) {
            (self.make, self.capture) = (make, capture)
        }

        mutating func next() async throws -> Data? {
            if base == nil { base = try make().makeAsyncIterator() }
            guard let chunk = try await base?.next() else { return nil }
            capture.add(chunk)
            return chunk
        }
    }
}

/// The iterator of a recorded response's body, read by one reader at a time.
// @unchecked Sendable: `iterator` is touched only by `next()`, which the body's one reader calls
// one at a time (TransportBody's pull contract), and by `abandon()`, which the body calls once
// its reader has stopped.
final class StreamReader: @unchecked Sendable {
    private var iterator: TransportBody.AsyncIterator?

    init(_ iterator: TransportBody.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async throws -> Data? {
        try await iterator?.next()
    }

    /// Drops the iterator, which ends the engine's transfer.
    func abandon() {
        iterator = nil
    }
}
