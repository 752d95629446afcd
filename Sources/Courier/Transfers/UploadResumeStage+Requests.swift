import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The requests of a resumable upload besides its creation: discovery, offset, append.
extension UploadResumeStage {
    /// What the upload resource says of its offset.
    enum OffsetAnswer {
        /// The bytes it has, and the limits it announces.
        case known(Int64, UploadLimits)
        /// It is complete: the upload's answer was lost, this one stands for it.
        case complete(TransportResponse)
        /// It is gone (404, 410; 403 for tus): the upload starts over.
        case gone
        /// Another status (a 401 for the interceptor, a 5xx for the retry policy, a 4xx): the
        /// attempt's answer, the upload's state kept.
        case answered(TransportResponse)
    }

    /// Asks the upload resource for its offset (`HEAD`; `length` is the body's).
    /// - Throws: A bad server response when a success has no usable `Upload-Offset`.
    func offset(
        of location: URL, _ length: Int64, _ request: TransportRequest, _ context: ExchangeContext,
        _ chain: StageChain.Next
    ) async throws -> OffsetAnswer {
        let speaking = source.speaking
        let head = Self.bodiless(request, uploadRequest(location, method: "HEAD", from: request, speaking: speaking))
        let response = try await Provider<MultiTarget>.send(head, through: chain, context)
        if speaking.isGone(response.statusCode) { return .gone }
        guard (200..<300).contains(response.statusCode) else { return .answered(response) }
        let fields = response.headerFields
        guard let offset = UploadFields.integer(fields["Upload-Offset"]), offset <= length else {
            throw TransportFailure(
                kind: .badServerResponse, underlyingError: TransferError.uploadOffsetMismatch(location))
        }
        if speaking.isComplete(fields, offset: offset, length: length) { return .complete(response) }
        return .known(offset, speaking.limits(in: fields))
    }

    /// Whether the target's resource takes resumable uploads in the upload's protocol (its answer
    /// to `OPTIONS` says so), and the limits it announces; `nil` when it does not.
    /// - Throws: ``TransferError/uploadTooLarge(limit:)`` when the largest upload it takes is
    ///   smaller than the body: nothing is sent.
    func discover(
        _ request: TransportRequest, _ upload: UploadSource, _ context: ExchangeContext, _ chain: StageChain.Next
    ) async throws -> UploadLimits? {
        var asking = request.urlRequest
        asking.httpMethod = "OPTIONS"
        // tus asks clients not to send its version with OPTIONS.
        if source.speaking == .ietfDraft { source.speaking.mark(&asking) }
        let response = try await Provider<MultiTarget>.send(Self.bodiless(request, asking), through: chain, context)
        let limits = source.speaking.limits(in: response.headerFields)
        if let maxSize = limits.maxSize, maxSize < upload.length { throw TransferError.uploadTooLarge(limit: maxSize) }
        return source.speaking.isSpoken(in: response.headerFields) ? limits : nil
    }

    /// `count` bytes from `offset`, appended to the upload resource; `last` when they end the body.
    func appending(
        _ upload: UploadSource, from offset: Int64, count: Int64, last: Bool, to location: URL,
        _ request: TransportRequest
    ) -> TransportRequest {
        var append = request
        append.urlRequest = uploadRequest(location, method: "PATCH", from: request, speaking: source.speaking)
        source.speaking.append(&append.urlRequest, from: offset, last: last)
        append.body = .stream(upload.body(from: offset, count: count))
        append.delivery = .memory
        if let report = request.progress {
            let total = upload.length
            append.progress = { @Sendable progress in
                let sent = offset + progress.completedBytes
                report(TransferProgress(direction: .upload, completedBytes: sent, expectedBytes: total))
            }
        }
        return append
    }

    /// `request` as `urlRequest`, without a body, its answer read into memory, reporting no
    /// progress of its own: the protocol's requests besides the append.
    static func bodiless(_ request: TransportRequest, _ urlRequest: URLRequest) -> TransportRequest {
        var bodiless = request
        bodiless.urlRequest = urlRequest
        bodiless.urlRequest.httpBody = nil
        bodiless.body = .inline
        bodiless.delivery = .memory
        bodiless.progress = nil
        return bodiless
    }

    /// A request to the upload resource: the target's fields (its credentials among them, unless
    /// the resource is on another origin, by the rule redirects follow), the protocol's version,
    /// no body of its own.
    func uploadRequest(
        _ location: URL, method: String, from request: TransportRequest, speaking: ResumableUploadProtocol
    ) -> URLRequest {
        var upload = request.urlRequest
        upload.url = location
        upload.httpMethod = method
        upload.httpBody = nil
        for name in ["Content-Type", "Content-Length", "Content-Encoding", "Upload-Length"] {
            upload.setValue(nil, forHTTPHeaderField: name)
        }
        if let original = request.urlRequest.url, Origin(original) != Origin(location) {
            for name in Redaction.defaultHeaders {
                upload.setHeaderField(nil, named: name)
            }
        }
        speaking.mark(&upload)
        return upload
    }

    /// The upload resource a creation's answer names, resolved against the URL that answered (the
    /// last hop's, when the creation was redirected), else the request's.
    static func location(of response: TransportResponse, _ request: TransportRequest) -> URL? {
        guard let text = response.headerFields["Location"], let base = response.response?.url ?? request.urlRequest.url
        else { return nil }
        return URL(string: text, relativeTo: base)?.absoluteURL
    }
}
