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
    /// One request to the plugins and the interceptor; its exchanges (the protocol's creation,
    /// offset and append requests) are one attempt's. The first call asks the target's resource
    /// whether it takes resumable uploads (`OPTIONS`): one that does not gets the whole file in
    /// one plain request of the target's method. A retried attempt (``RetryPolicy`` retries a
    /// lost connection or a timeout of a resumable upload whatever its method once its upload
    /// resource exists: it is never applied twice, see ``RequestContext/resumesTransfer``; a
    /// creation whose answer is lost is not retried) asks the server for its offset and
    /// sends the rest; so does a later call after this one failed or was cancelled, in this
    /// process or the next, while the file has not changed (a changed file is uploaded again,
    /// from its first byte, to a new upload resource; the old one is cancelled). Cancelling the
    /// task pauses the upload; ``cancelUpload(_:of:stateDirectory:)`` ends it on the server.
    /// - Parameters:
    ///   - target: The target whose request carries the file (its method, URL and fields; a body
    ///     of its own is not sent).
    ///   - file: The file to upload, read as it is sent (never loaded whole).
    ///   - speaking: The protocol of the server's resumable uploads; the IETF draft by default.
    ///   - stateDirectory: Where the upload's state is kept; ``ResumableUpload/defaultStateDirectory``
    ///     by default.
    ///   - progress: Receives the upload's progress (bytes the server has, including those from
    ///     earlier attempts, against the file's length), from the thread the transfer runs on.
    /// - Returns: The server's answer to the whole upload, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the upload fails; what the server has stays there to resume.
    public func upload(
        _ target: Target, resumingFrom file: URL, speaking: ResumableUploadProtocol = .ietfDraft,
        stateDirectory: URL = ResumableUpload.defaultStateDirectory,
        progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> Response {
        let source = ResumableUploadSource(content: .file(file), stateDirectory: stateDirectory, speaking: speaking)
        return try await upload(target, source, progress: progress)
    }

    /// Uploads the bytes of a replayable stream of known length as the body of `target`'s request,
    /// resuming what an earlier attempt or an earlier process sent: as
    /// ``upload(_:resumingFrom:speaking:stateDirectory:progress:)`` does for a file.
    ///
    /// ```swift
    /// let export = UploadStream(length: UInt64(report.count)) { InputStream(data: report) }
    /// let answer = try await media.upload(.video, resumingFrom: export, identifiedBy: "report-2026-11")
    /// ```
    /// A resumed attempt makes the stream again and passes over the bytes the server has. The
    /// stream must give the same bytes every time it is made, and `identifier` must name those
    /// bytes (a digest, or a name and a version): the upload's state is found by it, and a state
    /// of another length starts over, but other changed bytes cannot be noticed.
    /// - Parameters:
    ///   - target: The target whose request carries the body.
    ///   - body: A replayable stream with a `length`.
    ///   - identifier: What names the stream's bytes, for the upload's state.
    ///   - speaking: The protocol of the server's resumable uploads; the IETF draft by default.
    ///   - stateDirectory: Where the upload's state is kept.
    ///   - progress: Receives the upload's progress, counting what the server already has.
    /// - Returns: The server's answer to the whole upload, after every plugin's `process`.
    /// - Throws: ``CourierError`` when the upload fails, with ``TransferError/streamNotReplayable`` or
    ///   ``TransferError/uploadLengthUnknown`` for a stream that cannot be resumed (nothing sent).
    public func upload(
        _ target: Target, resumingFrom body: UploadStream, identifiedBy identifier: String,
        speaking: ResumableUploadProtocol = .ietfDraft, stateDirectory: URL = ResumableUpload.defaultStateDirectory,
        progress: (@Sendable (ProgressResponse) -> Void)? = nil
    ) async throws(CourierError) -> Response {
        let content = UploadSource.Content.stream(body, identifier: identifier)
        do {
            _ = try UploadSource(content)
        } catch {
            throw CourierError.underlying(error, nil)
        }
        let source = ResumableUploadSource(content: content, stateDirectory: stateDirectory, speaking: speaking)
        return try await upload(target, source, progress: progress)
    }

    /// Cancels the resumable upload of `file` to `target` that an earlier call left unfinished:
    /// sends `DELETE` to its upload resource (through the pipeline, as one request) and removes its
    /// state, so that the server can drop what it has and the next upload starts over.
    ///
    /// ```swift
    /// let unfinished = URL(fileURLWithPath: "/tmp/Uploads/talk.mov")
    /// try await media.cancelUpload(.video, of: unfinished)
    /// ```
    /// - Parameters:
    ///   - target: The target the upload was sent to.
    ///   - file: The file it sent.
    ///   - stateDirectory: Where its state is kept.
    /// - Returns: The server's answer to the `DELETE`, or `nil` when there was no unfinished upload
    ///   (nothing is sent).
    /// - Throws: ``CourierError`` when the request fails; the state stays unless the server answers
    ///   with a success or the resource is gone (404, 410; 403 for tus).
    @discardableResult
    public func cancelUpload(
        _ target: Target, of file: URL, stateDirectory: URL = ResumableUpload.defaultStateDirectory
    ) async throws(CourierError) -> Response? {
        try await cancelUpload(target, .file(file), stateDirectory)
    }

    /// Cancels the resumable upload of the stream `identifier` names to `target`: as
    /// ``cancelUpload(_:of:stateDirectory:)`` does for a file.
    /// - Parameters:
    ///   - target: The target the upload was sent to.
    ///   - identifier: The identifier the upload was given.
    ///   - stateDirectory: Where its state is kept.
    /// - Returns: The server's answer to the `DELETE`, or `nil` when there was no unfinished upload.
    /// - Throws: ``CourierError`` when the request fails.
    @discardableResult
    public func cancelUpload(
        _ target: Target, identifiedBy identifier: String, stateDirectory: URL = ResumableUpload.defaultStateDirectory
    ) async throws(CourierError) -> Response? {
        let placeholder = UploadStream(length: 0) { InputStream(data: Data()) }
        return try await cancelUpload(target, .stream(placeholder, identifier: identifier), stateDirectory)
    }

    /// Runs a resumable upload (or its cancellation) as one request.
    private func upload(
        _ target: Target, _ source: ResumableUploadSource, progress: (@Sendable (ProgressResponse) -> Void)?
    ) async throws(CourierError) -> Response {
        let reporter = progress.map { ProgressReporter(direction: .upload, handler: $0) }
        let result = await perform(target, progress: reporter, uploading: source)
        if case .success(let response) = result { reporter?.finish(with: response) }
        return try result.get()
    }

    /// Cancels the upload of `content` when its state is there (looked up by the target's
    /// endpoint); `nil` without a request otherwise.
    private func cancelUpload(
        _ target: Target, _ content: UploadSource.Content, _ stateDirectory: URL
    ) async throws(CourierError) -> Response? {
        guard let request = try? endpointClosure(target).urlRequest(),
            UploadState.read(UploadState.url(in: stateDirectory, request: request, identity: content.identity)) != nil
        else { return nil }
        var source = ResumableUploadSource(content: content, stateDirectory: stateDirectory, speaking: .ietfDraft)
        source.cancelling = true
        return try await upload(target, source, progress: nil)
    }
}
