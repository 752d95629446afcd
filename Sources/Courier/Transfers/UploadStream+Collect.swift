import Foundation

extension UploadStream {
    /// The whole body, read from ``chunks()``: in memory up to `memoryLimit` bytes, in a new
    /// temporary file (owned by the caller) beyond, for an engine that can only send a body it
    /// holds.
    ///
    /// It runs off the caller's actor (`@concurrent`): past `memoryLimit` the body is written to
    /// a file as it is read, blocking file I/O that grows with the body.
    /// - Parameter memoryLimit: The largest body kept in memory.
    /// - Returns: The body, in memory or in a temporary file.
    /// - Throws: ``TransferError/streamLengthMismatch(part:expected:actual:)`` when the body's size
    ///   is not its ``length``, what reading it throws, or `CancellationError`.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    public func collected(memoryLimit: UInt64) async throws -> MultipartFormData.EncodedBody {
        try await collected(memoryLimit: memoryLimit, stallLimit: nil)
    }

    /// ``collected(memoryLimit:)``, failing with ``TransferError/streamStalled(part:seconds:)``
    /// when the body gives no chunk for `stallLimit` seconds: a body that waits for the answer
    /// (full duplex) can never be collected before it is sent.
    func collected(memoryLimit: UInt64, stallLimit: TimeInterval?) async throws -> MultipartFormData.EncodedBody {
        var data = Data()
        // A body of known length that fits is gathered in one allocation, not a doubling series.
        if let length, length <= memoryLimit { data.reserveCapacity(Int(length)) }
        var file: DownloadFile?
        var total: UInt64 = 0
        let next = try chunks().makeAsyncIterator().nextChunk
        do {
            while let chunk = try await Self.chunk(from: next, within: stallLimit) {
                try Task.checkCancellation()
                total += UInt64(chunk.count)
                if file == nil, total > memoryLimit {
                    file = try DownloadFile()
                    try Self.write(data, to: file)
                    data = Data()
                }
                if file != nil { try Self.write(chunk, to: file) } else { data.append(chunk) }
            }
            if let length, length != total {
                throw TransferError.streamLengthMismatch(part: "body", expected: length, actual: total)
            }
            guard let file else { return .data(data) }
            guard file.flush() else { throw TransferError.cannotWriteFile(file.url) }
            file.close()
            return .temporaryFile(file.url)
        } catch {
            file?.delete()
            throw error
        }
    }

    /// The next chunk, waited for at most `seconds` when given.
    private static func chunk(
        from next: @escaping @Sendable () async throws -> Data?, within seconds: TimeInterval?
    ) async throws -> Data? {
        guard let seconds else { return try await next() }
        do {
            return try await TimeLimit.run(seconds: seconds, discard: { _ in }, next)
        } catch let failure as TransportFailure where failure.kind == .timedOut {
            throw TransferError.streamStalled(part: "body", seconds: seconds)
        }
    }

    private static func write(_ data: Data, to file: DownloadFile?) throws {
        guard let file, file.write(data) else {
            throw TransferError.cannotWriteFile(file?.url ?? URL(fileURLWithPath: "/"))
        }
    }
}
