import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to a downloaded temporary file once its attempt has an outcome.
enum DownloadPlacement {
    /// The most of a failed download's body kept in memory, for the error's `Response`.
    static let errorBodyLimit = 1 << 20

    /// Moves the file where `destination` says and returns the final URL; deletes the file when
    /// it cannot be moved. A folder at the destination is never removed, and a previous file is
    /// replaced in one atomic rename, so it is never lost when the move fails.
    static func place(
        _ file: URL, destination: DownloadDestination, response: HTTPURLResponse?
    ) throws(TransferError) -> URL {
        let (target, options) = destination(file, response)
        let manager = FileManager.default
        do {
            if options.contains(.createIntermediateDirectories) {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            // Not following a link: a link at the destination is replaced, never what it points to.
            if let type = try? manager.attributesOfItem(atPath: target.path)[.type] as? FileAttributeType {
                guard type != .typeDirectory else { throw TransferError.destinationIsDirectory(target) }
                guard options.contains(.removePreviousFile) else { throw TransferError.destinationExists(target) }
            }
            try replace(target, with: file)
            return target
        } catch {
            try? manager.removeItem(at: file)
            throw error as? TransferError ?? .cannotMoveDownload(to: target)
        }
    }

    /// Renames `file` to `target`, replacing a file there atomically. Across file systems the file
    /// is first copied next to `target`, then renamed.
    private static func replace(_ target: URL, with file: URL) throws {
        if rename(file.path, target.path) == 0 { return }
        guard errno == EXDEV else { throw TransferError.cannotMoveDownload(to: target) }
        let sibling = target.deletingLastPathComponent().appendingPathComponent(".courier-\(UUID().uuidString).part")
        do {
            try FileManager.default.copyItem(at: file, to: sibling)
            guard rename(sibling.path, target.path) == 0 else { throw TransferError.cannotMoveDownload(to: target) }
            try? FileManager.default.removeItem(at: file)
        } catch {
            try? FileManager.default.removeItem(at: sibling)
            throw error
        }
    }

    /// The start of a download that failed validation, as the body of its error's `Response`;
    /// the file is deleted.
    static func discard(_ file: URL) -> Data {
        defer { try? FileManager.default.removeItem(at: file) }
        return FileStreams.prefix(of: file, limit: errorBodyLimit)
    }
}
