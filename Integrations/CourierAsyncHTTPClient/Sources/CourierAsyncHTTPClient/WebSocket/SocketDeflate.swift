import CompressNIO
import Courier
import Foundation
import NIOCore

/// permessage-deflate (RFC 7692) as a handshake agreed it: compresses the messages sent, inflates
/// those received within the message limit. Used on the socket's event loop only.
final class SocketDeflate {
    /// What the server's `Sec-WebSocket-Extensions` agreed to.
    struct Agreement: Equatable {
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var clientMaxWindowBits: Int32 = 15
    }

    /// The extension's field as offered: this side accepts any window the server picks for it.
    static func offer(_ compression: WebSocketCompression) -> String {
        "permessage-deflate; client_max_window_bits"
            + (compression.noContextTakeover ? "; client_no_context_takeover" : "")
    }

    /// What the server's answer agreed to: `nil` when it named no extension; an error when it
    /// named one that was not offered, or parameters RFC 7692 does not allow.
    static func agreement(_ values: [String], offered: WebSocketCompression?) throws -> Agreement? {
        let extensions = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        guard !extensions.isEmpty, !(extensions.count == 1 && extensions[0].isEmpty) else { return nil }
        guard let offered, extensions.count == 1 else {
            throw WebSocketError.invalidHandshake("the server chose an extension that was not offered")
        }
        let parts = extensions[0].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "permessage-deflate" else {
            throw WebSocketError.invalidHandshake("the server chose an extension that was not offered")
        }
        var agreement = Agreement(clientNoContextTakeover: offered.noContextTakeover)
        var seen: Set<String> = []
        for parameter in parts.dropFirst() {
            // Empty pieces are kept: "=" must not leave the name missing.
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = pair.first, !first.isEmpty else { throw invalid("has a parameter without a name") }
            let name = first.lowercased()
            guard seen.insert(name).inserted else { throw invalid("repeats a parameter") }
            let bits = pair.count == 2 ? Int32(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
            switch (name, pair.count) {
            case ("server_no_context_takeover", 1): agreement.serverNoContextTakeover = true
            case ("client_no_context_takeover", 1): agreement.clientNoContextTakeover = true
            case ("server_max_window_bits", 2):
                // Inflating with the largest window reads what any smaller one wrote.
                guard let bits, (8...15).contains(bits) else {
                    throw invalid("has a server_max_window_bits outside 8...15")
                }
            case ("client_max_window_bits", 2):
                // zlib cannot write raw deflate with a window of 8 bits: 9 is the least it uses.
                guard let bits, (9...15).contains(bits) else {
                    throw invalid("has a client_max_window_bits outside 9...15")
                }
                agreement.clientMaxWindowBits = bits
            default: throw invalid("has an unknown parameter")
            }
        }
        return agreement
    }

    /// The error of an answer RFC 7692 does not allow; it never quotes the server's text.
    private static func invalid(_ problem: String) -> WebSocketError {
        .invalidHandshake("its permessage-deflate answer \(problem)")
    }

    private let agreement: Agreement
    private let compressor: ZlibCompressor
    private let decompressor: ZlibDecompressor
    /// The four bytes a sync flush ends with, which a message leaves out (RFC 7692 §7.2.1).
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    init(_ agreement: Agreement) throws {
        self.agreement = agreement
        compressor = try ZlibCompressor(
            algorithm: .deflate, configuration: ZlibConfiguration(windowSize: agreement.clientMaxWindowBits))
        decompressor = try ZlibDecompressor(algorithm: .deflate, windowSize: 15)
    }

    /// A message's payload, compressed; `nil` for an empty one (sent as it is).
    /// - Throws: When zlib could not compress it whole (its context is then unusable).
    func compress(_ payload: ByteBuffer, allocator: ByteBufferAllocator) throws -> ByteBuffer? {
        guard payload.readableBytes > 0 else { return nil }
        var input = payload
        var output = allocator.buffer(capacity: compressor.maxSize(from: input))
        try compressor.deflate(from: &input, to: &output, flush: .sync)
        // A sync flush that consumed everything ends with the empty stored block's four bytes.
        guard input.readableBytes == 0, output.readableBytes >= 4,
            output.getBytes(at: output.writerIndex - 4, length: 4) == Self.tail
        else { throw CompressNIOError.bufferOverflow }
        output.moveWriterIndex(to: output.writerIndex - 4)
        if agreement.clientNoContextTakeover { try compressor.reset() }
        return output
    }

    /// The most bytes one call to zlib inflates before the running total is checked.
    static let chunk = 64 << 10

    /// A compressed message's payload, inflated.
    /// - Throws: ``WebSocketError/messageTooBig(limit:)`` as soon as it would inflate past
    ///   `limit` (at most ``chunk`` bytes past it are ever inflated);
    ///   ``WebSocketError/protocolViolation(_:)`` for data that is not deflate.
    func decompress(_ payload: ByteBuffer, limit: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        var input = payload
        input.writeBytes(Self.tail)
        var output = allocator.buffer(capacity: min(limit, max(1_024, payload.readableBytes * 4)))
        var scratch = allocator.buffer(capacity: Self.chunk)
        while true {
            scratch.clear()
            let consumedAll: Bool
            do {
                try decompressor.inflate(from: &input, to: &scratch)
                // Z_OK with room left (all read), or Z_STREAM_END: a block with BFINAL ended the
                // sender's stream (RFC 7692 §7.2.3.4); what follows starts a new one.
                consumedAll = true
            } catch let error as CompressNIOError where error == .bufferOverflow {
                consumedAll = false
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                consumedAll = true
            } catch {
                throw WebSocketError.protocolViolation("a compressed message that does not inflate")
            }
            guard output.readableBytes + scratch.readableBytes <= limit else {
                throw WebSocketError.messageTooBig(limit: limit)
            }
            output.writeBuffer(&scratch)
            guard consumedAll else { continue }
            guard input.readableBytes > 0 else { break }
            // The sender's stream ended (BFINAL) before the message's bytes did: the next
            // message starts a new one, and so does anything but the tail appended here.
            try decompressor.reset()
            if input.readableBytes <= Self.tail.count { break }
        }
        if agreement.serverNoContextTakeover { try decompressor.reset() }
        return output
    }
}
