import Foundation

extension Data {
    /// Writes the bytes to `url` in one rename of a file written beside it, so that a reader (or
    /// a process that starts after this one is killed) sees the old file or the new one, never a
    /// part; the folder is created when missing.
    /// - Returns: `false` when the file could not be written.
    package func writeReplacing(_ url: URL) -> Bool {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sibling = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        do {
            try write(to: sibling)
        } catch {
            return false
        }
        guard systemRename(sibling.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: sibling)
            return false
        }
        return true
    }
}
