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
/// plain descriptor. The batch never grows past that size (a chunk that would overflow it is
/// written after the batch, and a chunk as large as a batch is written as it is), so a download
/// holds at most ``batchSize`` bytes here however its chunks are cut.
///
/// A transport returns the file as ``TransportResponse/fileURL`` for a request that
/// ``TransportRequest/Delivery/file``; the provider then moves it to its destination (or deletes
/// it). Any engine can write its downloads with one: `write` each chunk, `flush` at the end,
/// `close`, and `delete` on failure.
public final class DownloadFile: Sendable {
    /// How much is gathered before a write: 256 KiB. Writes of that size cost about as much per
    /// byte as larger ones (400 writes for 100 MiB), and the batch is memory every download holds.
    public static let batchSize = 1 << 18

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

    /// Writes to `descriptor`, an open file at `url` (a resumable download's partial file, opened
    /// for appending); closing this closes it.
    init(descriptor: Int32, url: URL) {
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
            if state.pending.count + data.count > Self.batchSize, !state.pending.isEmpty {
                defer { state.pending.removeAll(keepingCapacity: true) }
                guard Self.writeAll(state.pending, to: descriptor) else { return false }
            }
            guard data.count < Self.batchSize else { return Self.writeAll(data, to: descriptor) }
            // Reserved once at the batch's size: appending never reallocates (growing would
            // double the buffer).
            if state.pending.isEmpty { state.pending.reserveCapacity(Self.batchSize) }
            state.pending.append(data)
            return true
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
        systemWriteAll(data, to: descriptor)
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
