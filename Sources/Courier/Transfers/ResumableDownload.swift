import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download into a file that survives a dropped connection, a server restart and the end of the
/// process: see ``Provider/download(_:resumingInto:progress:)``.
///
/// While it runs, the bytes go to a partial file beside the destination (`NAME.courier-partial`),
/// and what is needed to resume them to a state file (`NAME.courier-resume`: the representation's
/// strong validator and length). A later attempt of the same request, or a later call in another
/// process, asks for the rest with `Range` and `If-Range`; the server sends the rest (206), or the
/// whole representation when it changed or does not do ranges (200), and the download starts over.
/// Once whole, the file is moved to its destination and both files are gone.
///
/// Pause by cancelling the task (the partial file stays); resume by calling `download` again;
/// cancel for good with ``discard(_:)``.
public enum ResumableDownload {
    /// The bytes of an unfinished download into `file` already on disk, or `nil` when there is
    /// none (never started, finished, or discarded).
    /// - Parameter file: The download's destination.
    /// - Returns: The length of the partial file.
    public static func resumableLength(of file: URL) -> Int64? {
        guard FileManager.default.fileExists(atPath: stateURL(of: file).path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: partialURL(of: file).path),
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }

    /// Deletes what an unfinished download into `file` left (its partial and state files), so
    /// that the next download of it starts from the first byte. The destination itself is left.
    /// - Parameter file: The download's destination.
    public static func discard(_ file: URL) {
        try? FileManager.default.removeItem(at: stateURL(of: file))
        try? FileManager.default.removeItem(at: partialURL(of: file))
    }

    /// Where a resumable download into `file` is placed: there, replacing a previous file, its
    /// folder created when missing.
    static func destination(_ file: URL) -> DownloadDestination {
        { _, _ in (file, [.createIntermediateDirectories, .removePreviousFile]) }
    }

    /// The partial file of a download into `file`.
    static func partialURL(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".courier-partial")
    }

    /// The state file of a download into `file`.
    static func stateURL(of file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".courier-resume")
    }
}
