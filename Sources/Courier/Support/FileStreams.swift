import Foundation

/// Reading and writing files (and reading any stream) a chunk at a time with `InputStream` and
/// `OutputStream`, which every
/// platform Courier supports has. (`FileHandle`'s throwing `read(upToCount:)`, `write(contentsOf:)`
/// and `close()` need macOS 10.15.4 / iOS 13.4, and its older methods raise Objective-C exceptions
/// on Apple platforms when a disk is full.)
enum FileStreams {
    /// Calls `body` with each chunk of the file at `url`, at most `chunkSize` bytes each and
    /// `limit` bytes in all.
    /// - Returns: `false` when the file cannot be opened or a read fails.
    static func read(_ url: URL, chunkSize: Int, limit: Int = .max, _ body: (Data) -> Void) -> Bool {
        guard let stream = InputStream(url: url) else { return false }
        return read(stream, chunkSize: chunkSize, limit: limit, body)
    }

    /// Opens `stream` and calls `body` with each chunk it gives, at most `chunkSize` bytes each
    /// and `limit` bytes in all; closes it afterwards.
    /// - Returns: `false` when the stream cannot be opened or a read fails.
    static func read(_ stream: InputStream, chunkSize: Int, limit: Int = .max, _ body: (Data) -> Void) -> Bool {
        stream.open()
        defer { stream.close() }
        guard stream.streamStatus != .error else { return false }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var total = 0
        while total < limit {
            let count = stream.read(&buffer, maxLength: min(chunkSize, limit - total))
            if count < 0 { return false }
            if count == 0 { return true }
            total += count
            body(Data(buffer[0..<count]))
        }
        return true
    }

    /// Up to `limit` bytes from the start of the file at `url`; empty when it cannot be read.
    static func prefix(of url: URL, limit: Int) -> Data {
        var data = Data()
        _ = read(url, chunkSize: min(limit, 64 << 10), limit: limit) { data.append($0) }
        return data
    }

    /// Writes what `produce` hands to its writer to a new file at `url`, replacing any file there.
    /// - Returns: `false` when the file cannot be created or a write fails.
    static func write(to url: URL, _ produce: ((Data) -> Void) throws(TransferError) -> Void) throws(TransferError)
        -> Bool
    {
        guard let stream = OutputStream(url: url, append: false) else { return false }
        stream.open()
        defer { stream.close() }
        guard stream.streamStatus == .open else { return false }
        var failed = false
        try produce { chunk in
            guard !failed else { return }
            failed = !writeAll(chunk, to: stream)
        }
        return !failed
    }

    private static func writeAll(_ data: Data, to stream: OutputStream) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let written = stream.write(base + offset, maxLength: bytes.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
