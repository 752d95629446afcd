import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder whose files are written whole and durably: a file is written beside its name,
/// synced, renamed to its name, and the folder synced, so that after a crash at any byte the name
/// holds the old file or the new one, never a part, and a file written or removed stays so
/// (POSIX: a rename within a folder is atomic; `fsync` of the file and of its folder makes a new
/// name durable).
struct DurableFolder: Sendable {
    /// The folder.
    let url: URL

    /// Opens `url`, creating it (and its parents) when missing.
    /// - Throws: ``OutboxError/storage(operation:errno:)`` when it cannot be made.
    init(_ url: URL) throws(OutboxError) {
        self.url = url
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .storage(operation: "create its folder", errno: errno == 0 ? EIO : errno)
        }
    }

    /// Writes `data` as the file `name`, durably (see the type). A new file (`replacing` false)
    /// never replaces one of that name, and is removed again when it cannot be made durable, so
    /// that a write that throws leaves nothing.
    /// - Throws: ``OutboxError/diskFull``, or ``OutboxError/storage(operation:errno:)``.
    func write(_ data: Data, as name: String, replacing: Bool = true) throws(OutboxError) {
        let temporary = url.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("create a file", errno) }
        let written = systemWriteAll(data, to: descriptor)
        let code = errno
        let synced = written && fsync(descriptor) == 0
        let syncCode = errno
        _ = systemClose(descriptor)
        guard written, synced else {
            unlink(temporary.path)
            throw Self.failure("write a file", written ? syncCode : code)
        }
        let final = url.appendingPathComponent(name).path
        // A new name is linked, which fails when the name exists (a rename would replace it).
        guard (replacing ? systemRename(temporary.path, final) : link(temporary.path, final)) == 0 else {
            let renameCode = errno
            unlink(temporary.path)
            throw Self.failure("rename a file", renameCode)
        }
        if !replacing { unlink(temporary.path) }
        do {
            try sync()
        } catch {
            if !replacing { unlink(final) }
            throw error
        }
    }

    /// What reading a file found.
    enum Read {
        case data(Data)
        /// There is no file of that name.
        case missing
        /// The file could not be read now (too many open files, an I/O error): it may be there.
        case failed
    }

    /// Reads the file `name`.
    func read(_ name: String) -> Read {
        let path = url.appendingPathComponent(name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            return access(path, F_OK) != 0 && errno == ENOENT ? .missing : .failed
        }
        return .data(data)
    }

    /// Whether the file `name` exists.
    func contains(_ name: String) -> Bool {
        access(url.appendingPathComponent(name).path, F_OK) == 0
    }

    /// Removes the file `name`, durably; a file already gone is no error.
    /// - Throws: ``OutboxError/storage(operation:errno:)``.
    func remove(_ name: String) throws(OutboxError) {
        guard unlink(url.appendingPathComponent(name).path) == 0 || errno == ENOENT else {
            throw Self.failure("remove a file", errno)
        }
        try sync()
    }

    /// Calls `body` with the name and size of each file, in no order, reading the folder as it
    /// goes (never a list of every name); files being written (`.tmp`) are removed on the way.
    func forEachFile(_ body: (String, Int) -> Void) {
        guard let directory = opendir(url.path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            if name.hasPrefix(".") && name.hasSuffix(".tmp") {
                // A write a crash interrupted: never renamed, so never an entry.
                unlink(url.appendingPathComponent(name).path)
                continue
            }
            var info = stat()
            guard stat(url.appendingPathComponent(name).path, &info) == 0 else { continue }
            body(name, Int(info.st_size))
        }
    }

    /// The bytes free for this process on the folder's file system; `nil` when unknown.
    func freeBytes() -> Int? {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        let (bytes, overflow) = Int(clamping: info.f_bavail).multipliedReportingOverflow(
            by: Int(clamping: info.f_frsize))
        return overflow ? Int.max : bytes
    }

    /// Syncs the folder, so that the names written or removed in it last.
    private func sync() throws(OutboxError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure("open its folder", errno) }
        defer { _ = systemClose(descriptor) }
        guard fsync(descriptor) == 0 else { throw Self.failure("sync its folder", errno) }
    }

    private static func failure(_ operation: String, _ code: Int32) -> OutboxError {
        code == ENOSPC || code == EDQUOT ? .diskFull : .storage(operation: operation, errno: code)
    }
}
