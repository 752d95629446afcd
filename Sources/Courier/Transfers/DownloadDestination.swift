import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a download goes: given the temporary file Courier downloaded to and the response, returns
/// the final file URL and how to put the file there.
///
/// ```swift
/// let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("downloads")
/// let destination: DownloadDestination = { _, response in
///     let name = DownloadFileName.suggested(by: response)
///     return (downloads.appendingPathComponent(name), [.createIntermediateDirectories, .removePreviousFile])
/// }
/// ```
/// A stubbed download gets a response too (the request's URL and the sample's status and
/// headers), and its sample data is written to the destination.
/// The file is moved there only when the response passes validation; the ``Response`` then
/// carries the final URL in ``Response/fileURL``. A file the server names goes through
/// ``DownloadFileName`` first: never join a server's name to a folder as it is. Courier never
/// removes a folder at the destination, and replaces a previous file in one atomic rename.
public typealias DownloadDestination =
    @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse?) -> (
        destinationURL: URL, options: DownloadOptions
    )

/// How a download is put at its destination.
public struct DownloadOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates options from their bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Creates the destination's missing parent folders.
    public static let createIntermediateDirectories = DownloadOptions(rawValue: 1 << 0)
    /// Replaces a file already at the destination (otherwise that is an error).
    public static let removePreviousFile = DownloadOptions(rawValue: 1 << 1)
}

/// Ready-made download destinations.
public enum DownloadDestinations {
    /// A destination in `directory`, named after the response's suggested file name (or the URL's
    /// last path component), creating the folder and replacing any previous file.
    ///
    /// The server does not choose where the file lands: its name is made safe by
    /// ``DownloadFileName/suggested(by:)`` (no path, no `..`, no leading dot, no control
    /// characters), so the file is always created directly in `directory`, and only a file of that
    /// name is ever replaced (never a folder).
    /// - Parameter directory: The folder to download into.
    /// - Returns: The destination.
    public static func suggested(in directory: URL) -> DownloadDestination {
        { _, response in
            let name = DownloadFileName.suggested(by: response)
            return (
                directory.appendingPathComponent(name, isDirectory: false),
                [.createIntermediateDirectories, .removePreviousFile]
            )
        }
    }
}
