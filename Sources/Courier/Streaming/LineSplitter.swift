import Foundation

/// Splits a byte stream into lines ended by CRLF, LF or CR, chunk by chunk: a line end split
/// between two chunks (CR at the end of one, LF at the start of the next) counts once, and a line
/// whose bytes span chunks comes out whole. CR and LF never occur inside a UTF-8 sequence, so a
/// line is always whole UTF-8 when the stream is.
struct LineSplitter: Sendable {
    /// The bytes of the line not yet ended.
    private var pending: [UInt8] = []
    /// Whether the last byte seen was a CR, so that an LF right after it ends nothing.
    private var afterCR = false
    /// The most bytes a line may have; a longer one is cut there.
    let maximumLineLength: Int

    init(maximumLineLength: Int = 1 << 20) {
        self.maximumLineLength = maximumLineLength
    }

    /// The lines that `chunk` ends, each without its line end.
    /// - Returns: The lines, as bytes.
    mutating func lines(in chunk: Data) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
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
                append(bytes[start..<index])
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
                afterCR = byte == 0x0D
                start = index + 1
            }
            if start < bytes.count {
                append(bytes[start..<bytes.count])
                afterCR = false
            }
        }
        return lines
    }

    /// The bytes of a line not ended when the stream ends, if any.
    var unterminated: [UInt8]? {
        pending.isEmpty ? nil : pending
    }

    private mutating func append(_ bytes: Slice<UnsafeRawBufferPointer>) {
        let room = maximumLineLength - pending.count
        guard room > 0 else { return }
        pending.append(contentsOf: bytes.prefix(room))
    }
}
