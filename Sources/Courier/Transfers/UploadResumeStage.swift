import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a resumable upload, by the resumable uploads draft
/// (draft-ietf-httpbis-resumable-upload, interop version 6): creates the upload resource with an
/// empty first request (`Upload-Complete: ?0`; its `Location` is the resource, kept in the upload's
/// state), or, when there is one already, asks it for its offset (`HEAD`), then appends the rest of
/// the file from there (`PATCH` with `Upload-Offset` and `Upload-Complete: ?1`), whose answer is
/// the server's answer to the whole upload.
///
/// The first request of an upload asks the target's resource whether it takes resumable uploads
/// (`OPTIONS`; a server that does answers with `Upload-Limit`), so that a server that does not is
/// never sent an empty upload: it gets the whole file in one plain request instead. Like
/// ``ResumeStage``, it is put above the provider's chain only for such a request; every request
/// goes through the chain.
struct UploadResumeStage: Stage {
    /// The file to upload, where its state is kept, and whether the server takes resumable
    /// uploads.
    let source: ResumableUploadSource

    /// Sends the upload's requests through `chain` until the server has the whole file.
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next chain: StageChain.Next
    ) async throws -> TransportResponse {
        let file = try UploadSource(self.source.file)
        let stateURL = UploadState.url(in: self.source.stateDirectory, request: request.urlRequest, file: file)
        if let state = UploadState.read(stateURL).flatMap({ $0.matches(file) ? $0 : nil }),
            let known = try await Self.offset(of: state.location, request, context, chain)
        {
            // Whole on the server already: its answer to the upload was lost; the offset's is returned.
            guard !known.complete else {
                try? FileManager.default.removeItem(at: stateURL)
                return known.response
            }
            return try await append(from: known.offset, to: state.location, file, request, context, chain, stateURL)
        }
        guard try await Self.takesResumableUploads(request, file, context, chain) else {
            self.source.resumable.withLock { $0 = false }
            return try await chain(Self.plain(request, file), context)
        }
        let created = try await chain(Self.creation(of: request, length: file.length), context)
        guard created.statusCode == 201, let location = Self.location(of: created, request) else {
            return created
        }
        guard UploadState(location: location, length: file.length, modified: file.modified).write(to: stateURL)
        else { throw TransferError.cannotWriteFile(stateURL) }
        let offset = UploadFields.integer(created.headerFields["Upload-Offset"]) ?? 0
        return try await append(from: offset, to: location, file, request, context, chain, stateURL)
    }

    /// Appends the file from `offset` to the upload resource; a conflict (the server has another
    /// offset) is followed at most twice. The state is kept after a server error (5xx), so that a
    /// retry resumes.
    private func append(
        from offset: Int64, to location: URL, _ source: UploadSource, _ request: TransportRequest,
        _ context: ExchangeContext, _ chain: StageChain.Next, _ stateURL: URL
    ) async throws -> TransportResponse {
        var offset = offset
        for _ in 0..<3 {
            guard offset >= 0, offset <= source.length else { break }
            let response = try await chain(Self.appending(source, from: offset, to: location, request), context)
            let serverOffset = UploadFields.integer(response.headerFields["Upload-Offset"])
            guard response.statusCode == 409, let serverOffset else {
                // A server error leaves the upload resource for a retry to resume; any other
                // answer ends the upload.
                if response.statusCode < 500 { try? FileManager.default.removeItem(at: stateURL) }
                return response
            }
            offset = serverOffset
        }
        throw TransferError.uploadOffsetMismatch(location)
    }
}

extension UploadResumeStage {
    /// The offset the upload resource has and whether it is complete, or `nil` when it is gone
    /// (404, 410): the upload then starts over. Any other answer fails the attempt as a bad
    /// server response.
    private static func offset(
        of location: URL, _ request: TransportRequest, _ context: ExchangeContext, _ chain: StageChain.Next
    ) async throws -> (offset: Int64, complete: Bool, response: TransportResponse)? {
        let head = bodiless(request, uploadRequest(location, method: "HEAD", from: request))
        let response = try await Provider<MultiTarget>.send(head, through: chain, context)
        if response.statusCode == 404 || response.statusCode == 410 { return nil }
        guard (200..<300).contains(response.statusCode),
            let offset = UploadFields.integer(response.headerFields["Upload-Offset"])
        else {
            throw TransportFailure(
                kind: .badServerResponse, underlyingError: TransferError.uploadOffsetMismatch(location))
        }
        return (offset, UploadFields.boolean(response.headerFields["Upload-Complete"]) == true, response)
    }

    /// Whether the target's resource takes resumable uploads: its answer to `OPTIONS` carries
    /// `Upload-Limit` (or the draft's interop version).
    /// - Throws: ``TransferError/uploadTooLarge(limit:)`` when the limit's `max-size` is smaller
    ///   than the file: nothing is sent.
    private static func takesResumableUploads(
        _ request: TransportRequest, _ file: UploadSource, _ context: ExchangeContext, _ chain: StageChain.Next
    ) async throws -> Bool {
        var asking = request.urlRequest
        asking.httpMethod = "OPTIONS"
        asking.setValue(String(UploadFields.interopVersion), forHTTPHeaderField: "Upload-Draft-Interop-Version")
        let options = bodiless(request, asking)
        let response = try await Provider<MultiTarget>.send(options, through: chain, context)
        let fields = response.headerFields
        if let limit = UploadFields.limits(fields["Upload-Limit"]).maxSize, limit < file.length {
            throw TransferError.uploadTooLarge(limit: limit)
        }
        return fields["Upload-Limit"] != nil || fields["Upload-Draft-Interop-Version"] != nil
    }

    /// The target's request without its body, creating the upload resource.
    private static func creation(of request: TransportRequest, length: Int64) -> TransportRequest {
        var creation = request.urlRequest
        creation.setValue(String(UploadFields.interopVersion), forHTTPHeaderField: "Upload-Draft-Interop-Version")
        creation.setValue(UploadFields.text(false), forHTTPHeaderField: "Upload-Complete")
        creation.setValue(String(length), forHTTPHeaderField: "Upload-Length")
        creation.setValue("0", forHTTPHeaderField: "Content-Length")
        return bodiless(request, creation)
    }

    /// `request` as `urlRequest`, without a body, its answer read into memory, reporting no
    /// progress of its own: the draft's requests besides the append.
    private static func bodiless(_ request: TransportRequest, _ urlRequest: URLRequest) -> TransportRequest {
        var bodiless = request
        bodiless.urlRequest = urlRequest
        bodiless.urlRequest.httpBody = nil
        bodiless.body = .inline
        bodiless.delivery = .memory
        bodiless.progress = nil
        return bodiless
    }

    /// The rest of the file from `offset`, appended to the upload resource, completing it.
    private static func appending(
        _ source: UploadSource, from offset: Int64, to location: URL, _ request: TransportRequest
    ) -> TransportRequest {
        var append = request
        append.urlRequest = uploadRequest(location, method: "PATCH", from: request)
        append.urlRequest.setValue(String(offset), forHTTPHeaderField: "Upload-Offset")
        append.urlRequest.setValue(UploadFields.text(true), forHTTPHeaderField: "Upload-Complete")
        append.urlRequest.setValue(UploadFields.partialUploadType, forHTTPHeaderField: "Content-Type")
        append.body = .stream(source.body(from: offset))
        append.delivery = .memory
        if let report = request.progress {
            let total = source.length
            append.progress = { @Sendable progress in
                let sent = offset + progress.completedBytes
                report(TransferProgress(direction: .upload, completedBytes: sent, expectedBytes: total))
            }
        }
        return append
    }

    /// The whole file in one plain request, for a server that does not take resumable uploads.
    private static func plain(_ request: TransportRequest, _ source: UploadSource) -> TransportRequest {
        var plain = request
        plain.urlRequest.httpBody = nil
        plain.body = .file(source.url)
        plain.delivery = .memory
        return plain
    }

    /// A request to the upload resource: the target's fields (its credentials among them, unless
    /// the resource is on another origin, by the rule redirects follow), the draft's version, no
    /// body of its own.
    private static func uploadRequest(_ location: URL, method: String, from request: TransportRequest) -> URLRequest {
        var upload = request.urlRequest
        upload.url = location
        upload.httpMethod = method
        upload.httpBody = nil
        for name in ["Content-Type", "Content-Length", "Content-Encoding"] {
            upload.setValue(nil, forHTTPHeaderField: name)
        }
        if let original = request.urlRequest.url, Origin(original) != Origin(location) {
            for name in Redaction.defaultHeaders {
                upload.setHeaderField(nil, named: name)
            }
        }
        upload.setValue(String(UploadFields.interopVersion), forHTTPHeaderField: "Upload-Draft-Interop-Version")
        return upload
    }

    /// The upload resource a creation's answer names, resolved against the request's URL.
    private static func location(of response: TransportResponse, _ request: TransportRequest) -> URL? {
        guard let text = response.headerFields["Location"], let base = request.urlRequest.url else { return nil }
        return URL(string: text, relativeTo: base)?.absoluteURL
    }
}
