import CompressNIO
import Courier
import Foundation
import NIOCore

/// Inflates the compressed messages a socket receives, on the reader's side: one message at a
/// time, as the reader asks for it, so that memory holds a few reads of compressed bytes and one
/// message inflated (never a read's worth of messages inflated at once), and zlib's work is not
/// done on the event loop.
///
/// `@unchecked Sendable`: zlib's stream is not thread-safe. Invariant: the instance is used only
/// under its ``SocketInbox``'s lock, which takes each message and inflates it in one critical
/// section, and the handler appends messages there in the order they arrived, so calls never
/// overlap and go in that order (the order a shared context needs).
final class SocketInflater: @unchecked Sendable {
    /// The most bytes one call to zlib inflates before the running total is checked.
    static let chunk = 64 << 10

    private let decompressor: ZlibDecompressor
    private let noContextTakeover: Bool
    private let limit: Int
    private let allocator = ByteBufferAllocator()
    /// How many messages were inflated: what tests read to see that inflating waits for a reader.
    private(set) var inflated = 0

    /// - Parameters:
    ///   - agreement: What the handshake agreed to.
    ///   - limit: The largest message, inflated.
    /// - Throws: When zlib cannot set up a stream (out of memory).
    init(_ agreement: SocketDeflate.Agreement, limit: Int) throws {
        // Inflating with the largest window reads what any smaller one wrote.
        decompressor = try ZlibDecompressor(algorithm: .deflate, windowSize: 15)
        noContextTakeover = agreement.serverNoContextTakeover
        self.limit = limit
    }

    /// A compressed message, inflated and, for text, validated as UTF-8.
    /// - Throws: ``WebSocketError/messageTooBig(limit:)`` as soon as it would inflate past the
    ///   limit (at most ``chunk`` bytes past it are ever inflated); ``WebSocketError/invalidUTF8``;
    ///   ``WebSocketError/protocolViolation(_:)`` for data that is not deflate.
    func message(_ payload: ByteBuffer, isText: Bool) throws(WebSocketError) -> WebSocketMessage {
        let inflated = try inflate(payload)
        self.inflated += 1
        guard isText else { return .binary(Data(inflated.readableBytesView)) }
        guard let text = String(validating: inflated.readableBytesView, as: UTF8.self) else { throw .invalidUTF8 }
        return .text(text)
    }

    private func inflate(_ payload: ByteBuffer) throws(WebSocketError) -> ByteBuffer {
        var input = payload
        input.writeBytes(SocketDeflate.tail)
        var output = allocator.buffer(capacity: min(limit, max(1_024, payload.readableBytes * 4)))
        var scratch = allocator.buffer(capacity: Self.chunk)
        do {
            while true {
                scratch.clear()
                let consumedAll = try step(&input, into: &scratch)
                guard output.readableBytes + scratch.readableBytes <= limit else {
                    throw WebSocketError.messageTooBig(limit: limit)
                }
                output.writeBuffer(&scratch)
                guard consumedAll else { continue }
                guard input.readableBytes > 0 else { break }
                // The sender's stream ended (BFINAL) before the message's bytes did: the next
                // message starts a new one, and so does anything but the tail appended here.
                try decompressor.reset()
                if input.readableBytes <= SocketDeflate.tail.count { break }
            }
            if noContextTakeover { try decompressor.reset() }
        } catch let error as WebSocketError {
            throw error
        } catch {
            throw .protocolViolation("a compressed message that does not inflate")
        }
        return output
    }

    /// One call to zlib, inflating at most a chunk: whether it read all the input it could.
    private func step(_ input: inout ByteBuffer, into scratch: inout ByteBuffer) throws -> Bool {
        do {
            try decompressor.inflate(from: &input, to: &scratch)
            // Z_OK with room left (all read), or Z_STREAM_END: a block with BFINAL ended the
            // sender's stream (RFC 7692 §7.2.3.4); what follows starts a new one.
            return true
        } catch let error as CompressNIOError where error == .bufferOverflow {
            return false
        } catch let error as CompressNIOError where error == .inputBufferOverflow {
            return true
        }
    }
}
