import Foundation

/// Splits a byte stream into lines ended by CRLF, LF or CR, chunk by chunk: a line end split
/// between two chunks (CR at the end of one, LF at the start of the next) counts once, and a line
/// whose bytes span chunks comes out whole. CR and LF never occur inside a UTF-8 sequence, so a
/// line is always whole UTF-8 when the stream is.
///
/// A line longer than the limit is an error, never cut: a truncated line of JSON may still parse.
struct LineSplitter: Sendable {
    /// The bytes of the line not yet ended.
    private var pending: [UInt8] = []
    /// Whether the last byte seen was a CR, so that an LF right after it ends nothing.
    private var afterCR = false
    /// The most bytes a line may have, without its line end.
    let maximumLineLength: Int

    init(maximumLineLength: Int = StreamingLimits.standard.maximumLineLength) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// Appends the lines that `chunk` ends to `lines`, each without its line end.
    /// - Throws: ``StreamingError/lineTooLong(limit:)`` when a line passes the limit; the lines
    ///   ended before it are in `lines` already.
    mutating func lines(in chunk: Data, into lines: inout [[UInt8]]) throws(StreamingError) {
        let failed: Bool = chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte == 0x0A || byte == 0x0D else { continue }
                if byte == 0x0A, afterCR, index == start, pending.isEmpty {
                    // The LF of a CRLF whose CR ended the previous line.
                    afterCR = false
                    start = index + 1
                    continue
                }
                guard append(bytes[start..<index]) else { return true }
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
                afterCR = byte == 0x0D
                start = index + 1
            }
            if start < bytes.count {
                guard append(bytes[start..<bytes.count]) else { return true }
                afterCR = false
            }
            return false
        }
        if failed { throw .lineTooLong(limit: maximumLineLength) }
    }

    /// The lines that `chunk` ends, each without its line end.
    /// - Returns: The lines, as bytes.
    /// - Throws: ``StreamingError/lineTooLong(limit:)`` when a line passes the limit.
    mutating func lines(in chunk: Data) throws(StreamingError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        try self.lines(in: chunk, into: &lines)
        return lines
    }

    /// The bytes of a line not ended when the stream ends, if any.
    var unterminated: [UInt8]? {
        pending.isEmpty ? nil : pending
    }

    /// Adds `bytes` to the pending line; `false` when the line would pass the limit (the pending
    /// line is then dropped, so nothing grows further).
    private mutating func append(_ bytes: Slice<UnsafeRawBufferPointer>) -> Bool {
        guard pending.count + bytes.count <= maximumLineLength else {
            pending = []
            return false
        }
        pending.append(contentsOf: bytes)
        return true
    }
}
