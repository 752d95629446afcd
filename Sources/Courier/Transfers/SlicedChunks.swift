import Foundation

/// `count` bytes of an upload body's chunks after the first `skipping`: a part of a file or of a
/// replayable stream, for one append of a resumable upload. A source that ends before the part
/// does fails with ``TransferError/streamLengthMismatch(part:expected:actual:)``.
struct SlicedChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// The bytes passed over before the part begins.
    let skipping: Int64
    /// The part's length.
    let count: Int64
    /// Makes the source's chunks, from its start.
    let make: @Sendable () throws -> UploadStream.Chunks

    func makeAsyncIterator() -> Iterator {
        Iterator(toSkip: skipping, left: count, total: skipping + count, make: make)
    }

    /// Reads the source, dropping what comes before the part and stopping at its end.
    struct Iterator: AsyncIteratorProtocol {
        var toSkip: Int64
        var left: Int64
        let total: Int64
        let make: @Sendable () throws -> UploadStream.Chunks
        var chunks: UploadStream.Chunks.AsyncIterator?

        init(toSkip: Int64, left: Int64, total: Int64, make: @escaping @Sendable () throws -> UploadStream.Chunks) {
            (self.toSkip, self.left, self.total, self.make) = (toSkip, left, total, make)
        }

        mutating func next() async throws -> Data? {
            if chunks == nil { chunks = try make().makeAsyncIterator() }
            while left > 0 {
                guard let chunk = try await chunks?.next() else {
                    throw TransferError.streamLengthMismatch(
                        part: "body", expected: UInt64(total), actual: UInt64(total - toSkip - left))
                }
                var part = chunk[...]
                if toSkip > 0 {
                    let dropped = Swift.min(Int64(part.count), toSkip)
                    part = part.dropFirst(Int(dropped))
                    toSkip -= dropped
                }
                if Int64(part.count) > left { part = part.prefix(Int(left)) }
                guard !part.isEmpty else { continue }
                left -= Int64(part.count)
                return Data(part)
            }
            return nil
        }
    }
}
