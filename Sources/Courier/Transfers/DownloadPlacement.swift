import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to a downloaded temporary file once its attempt has an outcome.
enum DownloadPlacement {
    /// The most of a failed download's body kept in memory, for the error's `Response`.
    static let errorBodyLimit = 1 << 20

    /// Moves the file where `destination` says and returns the final URL; deletes the file when
    /// it cannot be moved.
    static func place(
        _ file: URL, destination: DownloadDestination, response: HTTPURLResponse?
    ) throws(TransferError) -> URL {
        let (target, options) = destination(file, response)
        let manager = FileManager.default
        do {
            if options.contains(.createIntermediateDirectories) {
                try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            if manager.fileExists(atPath: target.path) {
                guard options.contains(.removePreviousFile) else { throw TransferError.destinationExists(target) }
                try manager.removeItem(at: target)
            }
            try manager.moveItem(at: file, to: target)
            return target
        } catch {
            try? manager.removeItem(at: file)
            throw error as? TransferError ?? .cannotMoveDownload(to: target)
        }
    }

    /// The start of a download that failed validation, as the body of its error's `Response`;
    /// the file is deleted.
    static func discard(_ file: URL) -> Data {
        defer { try? FileManager.default.removeItem(at: file) }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: errorBodyLimit)) ?? Data()
    }
}
