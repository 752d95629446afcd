import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary file a download is written to: created by Courier in the temporary folder, so
/// that Courier always knows its path and can delete it whatever happens (URLSession's own
/// download tasks leave unreported files behind on Linux when they fail or are cancelled).
///
/// URLSession gives no backpressure, so the cheaper each chunk is to handle, the fewer chunks wait
/// in memory: chunks are gathered into writes of up to ``batchSize`` bytes with `write(2)` on a
/// plain descriptor.
///
/// A transport returns the file as ``TransportResponse/fileURL`` for a request that
/// ``TransportRequest/writesToFile``; the provider then moves it to its destination (or deletes
/// it). Any engine can write its downloads with one: `write` each chunk, `flush` at the end,
/// `close`, and `delete` on failure.
public final class DownloadFile: Sendable {
    /// How much is gathered before a write: 1 MiB.
    public static let batchSize = 1 << 20

    private struct State {
        var descriptor: Int32?
        var pending = Data()
    }

    /// Where the file is.
    public let url: URL
    private let state: Locked<State>

    /// Creates an empty file in the temporary folder, readable and writable by its owner only.
    /// - Throws: ``TransferError/cannotWriteFile(_:)``.
    public init() throws(TransferError) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-download-\(UUID().uuidString).part")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWriteFile(url) }
        self.url = url
        self.state = Locked(State(descriptor: descriptor))
    }

    /// Appends `data`.
    /// - Parameter data: The bytes.
    /// - Returns: `false` when a write failed (a full disk, say), or the file is closed.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        state.withLock { state in
            guard let descriptor = state.descriptor else { return false }
            state.pending.append(data)
            guard state.pending.count >= Self.batchSize else { return true }
            defer { state.pending.removeAll(keepingCapacity: true) }
            return Self.writeAll(state.pending, to: descriptor)
        }
    }

    /// Writes what is still gathered.
    /// - Returns: `false` when that write failed, or the file is closed.
    @discardableResult
    public func flush() -> Bool {
        state.withLock { state in
            guard let descriptor = state.descriptor else { return false }
            defer { state.pending = Data() }
            return Self.writeAll(state.pending, to: descriptor)
        }
    }

    /// Closes the file, dropping what was not flushed; later writes fail.
    public func close() {
        state.withLock { state in
            if let open = state.descriptor { _ = systemClose(open) }
            state.descriptor = nil
            state.pending = Data()
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Closes the file and deletes it.
    public func delete() {
        close()
        try? FileManager.default.removeItem(at: url)
    }

    deinit {
        close()
    }
}
