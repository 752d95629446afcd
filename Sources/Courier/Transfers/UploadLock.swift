import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock of one resumable upload (a file beside its state): a second upload of the same
/// content to the same resource, in this process or another, is refused while the first runs, so
/// that two writers never append at the same offset. Removed when released; a lock taken on a file
/// that was removed meanwhile is taken again on the new one.
final class UploadLock: Sendable {
    private let url: URL
    private let descriptor: Int32

    /// Takes the lock at `url`, creating its folder and file.
    /// - Throws: ``TransferError/uploadInProgress`` when another upload holds it,
    ///   ``TransferError/cannotWriteFile(_:)`` when it cannot be made.
    init(_ url: URL) throws(TransferError) {
        try? FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        for _ in 0..<3 {
            let opened = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard opened >= 0 else { throw .cannotWriteFile(url) }
            guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
                _ = systemClose(opened)
                throw .uploadInProgress
            }
            // The holder before may have removed the file between our open and our lock: the
            // lock is good only on the file the path names now.
            var held = stat()
            var named = stat()
            if fstat(opened, &held) == 0, stat(url.path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                self.url = url
                descriptor = opened
                return
            }
            _ = systemClose(opened)
        }
        throw .cannotWriteFile(url)
    }

    /// Removes the lock's file and releases it.
    func release() {
        unlink(url.path)
        _ = systemClose(descriptor)
    }
}
