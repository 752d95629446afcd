import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The unfinished file of a ``ResumableDownload``, open for appending, and locked: a second
/// download into the same file (in this process or another) is refused while this one runs, so
/// two writers never interleave their bytes. Writes are gathered as a ``DownloadFile`` gathers
/// them (up to 256 KiB a write); what is gathered is written before the length is read, before
/// the file is emptied, and when it is closed, so the file on disk is always a prefix of what
/// arrived (a killed process loses at most the last batch, and resumes before it).
final class PartialDownload: Sendable {
    /// Where the partial file is.
    var url: URL { writer.url }
    private let writer: DownloadFile
    /// The descriptor while it is open (the writer closes it), for its length and its truncation.
    private let descriptor: Locked<Int32?>

    /// Opens (or creates) the partial file at `url` and locks it.
    /// - Throws: ``TransferError/downloadInProgress(_:)`` when another download holds it,
    ///   ``TransferError/cannotWriteFile(_:)`` when it cannot be opened.
    init(_ url: URL, destination: URL) throws(TransferError) {
        let opened = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw .cannotWriteFile(url) }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            _ = systemClose(opened)
            throw .downloadInProgress(destination)
        }
        writer = DownloadFile(descriptor: opened, url: url)
        descriptor = Locked(opened)
    }

    /// The bytes on disk, once what is gathered is written.
    var length: Int64 {
        descriptor.withLock { descriptor in
            guard let descriptor, writer.flush() else { return 0 }
            var status = stat()
            return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
        }
    }

    /// Cuts the file back to its first `length` bytes: empties it to start the download over
    /// (the default), or takes back what an answer that turned out to lie appended.
    /// - Parameter length: The bytes to keep.
    /// - Returns: `false` when the file could not be cut.
    func truncate(to length: Int64 = 0) -> Bool {
        descriptor.withLock { descriptor in
            guard let descriptor, writer.flush() else { return false }
            return ftruncate(descriptor, off_t(length)) == 0
        }
    }

    /// Renames the whole file to `url` while it is still locked, so that no other download of the
    /// same destination can open (and empty) it before it is moved into place: one that starts
    /// now finds no partial file and begins a new one.
    /// - Parameter url: The new name, in the same folder.
    /// - Returns: `false` when what is gathered could not be written or the file renamed.
    func rename(to url: URL) -> Bool {
        descriptor.withLock { descriptor in
            guard descriptor != nil, writer.flush() else { return false }
            return systemRename(writer.url.path, url.path) == 0
        }
    }

    /// Appends `data`.
    /// - Returns: `false` when the write failed (a full disk, say).
    func append(_ data: Data) -> Bool {
        writer.write(data)
    }

    /// Writes what is gathered and closes the file, which releases its lock.
    func close() {
        descriptor.withLock { descriptor in
            guard descriptor != nil else { return }
            writer.flush()
            writer.close()
            descriptor = nil
        }
    }

    deinit {
        close()
    }
}
