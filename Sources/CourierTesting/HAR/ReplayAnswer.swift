import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``HARReplayer``'s answers: a recorded entry in the delivery the request asks for, or a fault.
enum ReplayAnswer {
    /// The entry's response: its body in memory, in a temporary file, or as a stream whose chunks
    /// come as recorded (at their recorded times, when `timing` says so).
    static func response(
        _ entry: HAR.Entry, to request: TransportRequest, url: URL, timing: ReplayTiming, cutAfter: Int? = nil
    ) throws -> TransportResponse {
        let body = entry.responseBody
        let fields = entry.responseFields
        let status = entry.response.status
        switch request.delivery {
        case .stream:
            // A body that ended early when recorded ends the same way after its recorded bytes.
            let cut = cutAfter ?? (entry.courier?.incomplete == true ? body.count : nil)
            return TransportResponse(
                statusCode: status, headerFields: fields, url: url,
                stream: stream(body, chunks: entry.courier?.chunks, timing: timing, cutAfter: cut))
        case .file:
            if cutAfter != nil { throw lost }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "courier-replay-\(UUID().uuidString)")
            do {
                try body.write(to: file)
            } catch {
                throw TransferError.cannotWriteFile(file)
            }
            report(body.count, to: request)
            return TransportResponse(statusCode: status, headerFields: fields, url: url, data: Data(), fileURL: file)
        default:
            if cutAfter != nil { throw lost }
            report(body.count, to: request)
            return TransportResponse(statusCode: status, headerFields: fields, url: url, data: body)
        }
    }

    /// The answer `fault` gives instead of `entry`'s.
    static func faulted(
        _ fault: Fault, entry: HAR.Entry, request: TransportRequest, url: URL
    ) async throws -> TransportResponse {
        switch fault {
        case .status(let code, let retryAfter):
            let fields = retryAfter.map { HeaderFields(["Retry-After": String($0)]) } ?? HeaderFields()
            return TransportResponse(statusCode: code, headerFields: fields, url: url, data: Data())
        case .connectionRefused:
            throw TransportFailure(kind: .cannotConnect, underlyingError: URLError(.cannotConnectToHost))
        case .connectionLost:
            throw lost
        case .noAnswer:
            while true { try await Task.sleep(nanoseconds: 3_600_000_000_000) }
        case .cutBody(let bytes):
            return try response(entry, to: request, url: url, timing: .none, cutAfter: bytes)
        case .delay(let seconds):
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
            if let failure = entry.failure { throw failure }
            return try response(entry, to: request, url: url, timing: .none)
        @unknown default:
            throw lost
        }
    }

    private static var lost: TransportFailure {
        TransportFailure(kind: .connectionLost, underlyingError: URLError(.networkConnectionLost))
    }

    private static func report(_ count: Int, to request: TransportRequest) {
        request.progress?(
            TransferProgress(direction: .download, completedBytes: Int64(count), expectedBytes: Int64(count)))
    }

    /// `body` as a stream: in its recorded chunks, each at its recorded time scaled by `timing`
    /// (or at once), failing as a lost connection after `cutAfter` bytes when given.
    private static func stream(
        _ body: Data, chunks: [HAR.Chunk]?, timing: ReplayTiming, cutAfter: Int?
    ) -> TransportBody {
        let (stream, writer) = TransportBody.makeStream(memoryLimit: max(1, body.count))
        let pieces = pieces(of: body, chunks: chunks)
        let task = Task {
            var sent = 0
            var elapsed = 0.0
            for (at, piece) in pieces {
                if let factor = timing.factor, at * factor > elapsed {
                    try? await Task.sleep(nanoseconds: UInt64((at * factor - elapsed) * 1_000_000))
                    elapsed = at * factor
                }
                if Task.isCancelled { return }
                if let cutAfter, sent + piece.count > cutAfter {
                    writer.write(piece.prefix(cutAfter - sent))
                    writer.fail(lost)
                    return
                }
                writer.write(piece)
                sent += piece.count
            }
            if let cutAfter, sent >= cutAfter {
                writer.fail(lost)
                return
            }
            writer.finish()
        }
        writer.onTermination = { task.cancel() }
        return stream
    }

    /// The body cut as its chunks were recorded (the rest, if the file kept less, as one piece).
    private static func pieces(of body: Data, chunks: [HAR.Chunk]?) -> [(Double, Data)] {
        guard let chunks, !chunks.isEmpty else { return [(0, body)] }
        var pieces: [(Double, Data)] = []
        var offset = 0
        for chunk in chunks where offset < body.count {
            let end = min(body.count, offset + chunk.size)
            pieces.append((chunk.at, body.subdata(in: offset..<end)))
            offset = end
        }
        if offset < body.count { pieces.append((chunks.last?.at ?? 0, body.subdata(in: offset..<body.count))) }
        return pieces
    }
}
