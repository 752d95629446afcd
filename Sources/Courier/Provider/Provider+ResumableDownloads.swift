import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// Downloads the body of `target` into `file`, resuming what an earlier attempt or an earlier
    /// process left instead of starting from zero (see ``ResumableDownload``).
    ///
    /// ```swift
    /// let file = downloads.appendingPathComponent("dataset.zip")
    /// let response = try await datasets.download(.archive, resumingInto: file) { report in
    ///     print(Int(report.progress * 100), "%")   // counts the bytes already on disk
    /// }
    /// ```
    /// One request to the plugins and the interceptor; its pieces are attempts' exchanges. A
    /// retried attempt (``RetryPolicy`` retries a lost connection or a timeout of a `GET`) asks
    /// only for the missing bytes; so does a later call after this one failed or was cancelled,
    /// in this process or the next. The server's answer decides: a 206 with the right
    /// `Content-Range` is appended, a 200 (the file changed, or the server ignores ranges) starts
    /// the file over, and so does a 206 of another version (its validator is not the saved one); a
    /// wrong range, a `Content-Length` that is not the range's, or a body longer than the range
    /// fails with ``TransferError/rangeMismatch(expected:received:)`` and leaves the partial file
    /// as it was. A response without a strong validator (`ETag`, or a `Last-Modified` at least a
    /// second older than its `Date`) cannot be resumed safely: such a download starts over after a
    /// failure. The target's `timeoutInterval` bounds each wait (a piece's head, its body's next
    /// chunk), never the whole download; Courier enforces it on an engine that does not.
    ///
    /// The response is a 200 of the whole file, with its length, whatever pieces it took;
    /// ``Response/fileURL`` is `file`. The target's request is sent as it is built (a `GET`, as
    /// a rule; a download destination of its own is not used), asking for no content coding
    /// (`Accept-Encoding: identity`: a range of a compressed body could not be appended), and
    /// never joined with an identical request in flight.
    /// - Parameters:
    ///   - target: The target to download.
    ///   - file: Where the file goes; its folder is created when missing, a file there is replaced
    ///     once the download is whole. The partial and state files are kept beside it.
    ///   - progress: Receives the download's progress (bytes on disk, including those from
    ///     earlier attempts, against the whole length), from the thread the transfer runs on.
    /// - Returns: The response, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the download fails; what arrived stays on disk to resume.
    public func download(
        _ target: Target, resumingInto file: URL, progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> Response {
        let reporter = progress.map { ProgressReporter(direction: .download, handler: $0) }
        let result = await perform(target, progress: reporter, resumingInto: file.standardizedFileURL)
        if case .success(let response) = result { reporter?.finish(with: response) }
        return try result.get()
    }
}
