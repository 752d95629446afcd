import CompressNIO
import NIOCore

/// Compresses the messages a socket sends, as its permessage-deflate agreement says. Used on the
/// socket's event loop only (by its ``SocketFrameHandler``), where frames are written in order.
final class SocketCompressor {
    private let compressor: ZlibCompressor
    private let noContextTakeover: Bool
    /// Set when zlib failed: its context is then unusable, and every later message is sent
    /// uncompressed, which RFC 7692 allows at any time (the peer's context is left as it was).
    private var failed = false

    /// - Throws: When zlib cannot set up a stream (out of memory).
    init(_ agreement: SocketDeflate.Agreement) throws {
        compressor = try ZlibCompressor(
            algorithm: .deflate, configuration: ZlibConfiguration(windowSize: agreement.clientMaxWindowBits))
        noContextTakeover = agreement.clientNoContextTakeover
    }

    /// A message's payload, compressed; `nil` to send it as it is (an empty one, or any once
    /// zlib failed).
    func compress(_ payload: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer? {
        guard payload.readableBytes > 0, !failed else { return nil }
        var input = payload
        var output = allocator.buffer(capacity: compressor.maxSize(from: input))
        do {
            try compressor.deflate(from: &input, to: &output, flush: .sync)
            if noContextTakeover { try compressor.reset() }
        } catch {
            failed = true
            return nil
        }
        // A sync flush that consumed everything ends with the empty stored block's four bytes.
        guard input.readableBytes == 0, output.readableBytes >= 4,
            output.getBytes(at: output.writerIndex - 4, length: 4) == SocketDeflate.tail
        else {
            failed = true
            return nil
        }
        output.moveWriterIndex(to: output.writerIndex - 4)
        return output
    }
}
