import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Provider {
    /// Uploads `file` as the body of `target`'s request, resuming what an earlier attempt or an
    /// earlier process sent instead of starting over (see ``ResumableUpload``).
    ///
    /// ```swift
    /// let video = URL(fileURLWithPath: "/tmp/Uploads/talk.mov")
    /// let response = try await media.upload(.video, resumingFrom: video) { report in
    ///     print(report.completedBytes, "bytes on the server")
    /// }
    /// ```
    /// One request to the plugins and the interceptor; its exchanges (the draft's creation,
    /// offset and append requests) are one attempt's. The first call asks the target's resource
    /// whether it takes resumable uploads (`OPTIONS`): one that does not gets the whole file in
    /// one plain request of the target's method. A retried attempt (``RetryPolicy`` retries a
    /// lost connection or a timeout of a resumable upload whatever its method: it is never
    /// applied twice, see ``RequestContext/resumesTransfer``) asks the server for its offset and
    /// sends the rest; so does a later call after this one failed or was cancelled, in this process or the
    /// next, while the file has not changed (a changed file is uploaded again, from its first
    /// byte, to a new upload resource).
    /// - Parameters:
    ///   - target: The target whose request carries the file (its method, URL and fields; a body
    ///     of its own is not sent).
    ///   - file: The file to upload, read as it is sent (never loaded whole).
    ///   - stateDirectory: Where the upload's state is kept; ``ResumableUpload/defaultStateDirectory``
    ///     by default.
    ///   - progress: Receives the upload's progress (bytes the server has, including those from
    ///     earlier attempts, against the file's length), from the thread the transfer runs on.
    /// - Returns: The server's answer to the whole upload, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the upload fails; what the server has stays there to resume.
    public func upload(
        _ target: Target, resumingFrom file: URL, stateDirectory: URL = ResumableUpload.defaultStateDirectory,
        progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> Response {
        let reporter = progress.map { ProgressReporter(direction: .upload, handler: $0) }
        let source = ResumableUploadSource(file: file, stateDirectory: stateDirectory)
        let result = await perform(target, progress: reporter, uploading: source)
        if case .success(let response) = result { reporter?.finish(with: response) }
        return try result.get()
    }
}
