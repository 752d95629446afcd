import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a resumable upload (see ``ResumableUploadProtocol``): creates the upload
/// resource with an empty first request (its `Location` is the resource, kept in the upload's
/// state), or, when there is one already, asks it for its offset (`HEAD`), then appends the rest
/// from there (`PATCH` with `Upload-Offset`), in pieces no larger than the server's
/// `max-append-size`; the answer to the last is the answer to the whole upload.
///
/// The first request of a draft upload asks the target's resource whether it takes resumable
/// uploads (`OPTIONS`), so that a server that does not is never sent an empty upload: it gets the
/// whole body in one plain request instead. A tus upload creates its resource at once, as tus
/// clients do (the caller said the server speaks tus; servers often answer `OPTIONS` only at
/// another path), and a success without `Tus-Resumable` fails the upload.
///
/// Like ``ResumeStage``, it is the first stage of the chain (``StageChain``), only in such a
/// request's chain: every request it sends passes the stages below it, the cookie jar (a cookie
/// the creation sets goes with the appends; a resource on another origin gets its own origin's
/// cookies), the cache, the policy, the time limit, redirects and the trust gate.
struct UploadResumeStage: Stage {
    /// What to upload, where its state is kept, and whether the server takes resumable uploads.
    let source: ResumableUploadSource

    private var speaking: ResumableUploadProtocol { source.speaking }

    /// Sends the upload's requests through `chain` until the server has the whole body (or, to
    /// cancel it, the `DELETE` of its resource).
    ///
    /// `@concurrent`: the upload's lock file, its state file and the file's attributes are read
    /// and written here, and each append's body is read from the file below, blocking file I/O
    /// that must not run on an app's main actor when it awaits the upload there.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next chain: StageChain.Next
    ) async throws -> TransportResponse {
        let stateURL = UploadState.url(
            in: source.stateDirectory, request: request.urlRequest, identity: source.content.identity)
        let lock = try UploadLock(stateURL.appendingPathExtension("lock"))
        defer { lock.release() }
        let saved = UploadState.read(stateURL)
        if source.cancelling {
            guard let saved else { throw TransferError.noUploadToCancel }
            return try await cancel(saved, request, context, chain, stateURL)
        }
        let upload = try UploadSource(source.content)
        source.resumable.withLock { $0 = true }
        if let saved {
            if saved.matches(upload, speaking: speaking) {
                switch try await offset(of: saved.location, upload.length, request, context, chain) {
                case .known(let offset, let limits):
                    let limit = limits.maxAppendSize ?? saved.maxAppendSize
                    return try await append(
                        from: offset, to: saved.location, limit: limit, upload, request, context, chain, stateURL)
                case .complete(let response):
                    // Whole on the server already: its answer to the upload was lost; the offset's is returned.
                    try? FileManager.default.removeItem(at: stateURL)
                    return response
                case .answered(let response):
                    return response
                case .gone:
                    break
                }
            } else {
                // The content changed since: its old upload is cancelled (if the server answers).
                _ = try? await cancel(saved, request, context, chain, stateURL)
            }
            try? FileManager.default.removeItem(at: stateURL)
        }
        return try await create(upload, request, context, chain, stateURL)
    }

    /// Asks whether the server takes resumable uploads (the draft; a tus client is told it does),
    /// creates the upload resource, saves its state and appends the body; a server that does not
    /// gets one plain request.
    private func create(
        _ upload: UploadSource, _ request: TransportRequest, _ context: ExchangeContext, _ chain: StageChain.Next,
        _ stateURL: URL
    ) async throws -> TransportResponse {
        var limits = UploadLimits()
        if speaking == .ietfDraft {
            guard let announced = try await discover(request, upload, context, chain) else {
                self.source.resumable.withLock { $0 = false }
                var plain = request
                plain.urlRequest.httpBody = nil
                plain.body = upload.whole
                plain.delivery = .memory
                return try await chain(plain, context)
            }
            limits = announced
        }
        var creation = request.urlRequest
        speaking.create(&creation, length: upload.length, name: upload.content.name)
        // A creation whose answer is lost may have made a resource, which a retry would make
        // again: until its state is saved the attempt is not a resumable transfer's (no engine
        // shows the draft's `104 Upload Resumption Supported`, which could tell it earlier).
        source.resumable.withLock { $0 = false }
        let created = try await chain(Self.bodiless(request, creation), context)
        try speaking.checkCreation(created)
        guard created.statusCode == 201, let location = Self.location(of: created, request) else {
            return created
        }
        limits = limits.updated(by: speaking.limits(in: created.headerFields))
        let state = UploadState(
            location: location, length: upload.length, modified: upload.modified, speaking: speaking,
            maxAppendSize: limits.maxAppendSize)
        guard state.write(to: stateURL) else { throw TransferError.cannotWriteFile(stateURL) }
        source.resumable.withLock { $0 = true }
        let offset = UploadFields.integer(created.headerFields["Upload-Offset"]) ?? 0
        return try await append(
            from: offset, to: location, limit: limits.maxAppendSize, upload, request, context, chain, stateURL)
    }

    /// Appends the body from `start` to the upload resource, at most `limit` bytes a request, until
    /// the server has it whole. A conflict (the server has another offset) is followed at most
    /// twice in a row. The state is kept unless the server took the whole body or the resource is
    /// gone: after any other answer (a 401, 408, 429, 5xx…) a retry or the next call resumes it.
    private func append(
        from start: Int64, to location: URL, limit: Int64?, _ upload: UploadSource, _ request: TransportRequest,
        _ context: ExchangeContext, _ chain: StageChain.Next, _ stateURL: URL
    ) async throws -> TransportResponse {
        var offset = start
        var conflicts = 0
        let limit = Self.appendLimit(limit, speaking, engine: context.engine)
        while conflicts <= 2, offset >= 0, offset <= upload.length {
            let count = min(upload.length - offset, max(limit ?? .max, 1))
            let last = offset + count == upload.length
            let piece = appending(upload, from: offset, count: count, last: last, to: location, request)
            let response = try await chain(piece, context)
            switch speaking.outcome(of: response, end: offset + count, last: last) {
            case .finished:
                if speaking.endsUpload(response.statusCode) { try? FileManager.default.removeItem(at: stateURL) }
                return response
            case .advanced(let reached):
                // A server that took nothing is asked again, as for a conflict.
                conflicts = reached > offset ? 0 : conflicts + 1
                offset = reached
            case .conflict(let known):
                conflicts += 1
                if let known {
                    offset = known
                } else {
                    switch try await self.offset(of: location, upload.length, request, context, chain) {
                    case .known(let asked, _): offset = asked
                    case .complete(let response), .answered(let response): return response
                    case .gone: throw TransferError.uploadOffsetMismatch(location)
                    }
                }
            }
        }
        throw TransferError.uploadOffsetMismatch(location)
    }

    /// The most bytes one append carries: the server's `max-append-size`, and, for tus on
    /// URLSession on Linux, ``linuxTusAppendSize`` (FoundationNetworking sends a larger streamed
    /// body chunked, which tus servers often refuse; the draft's servers take it).
    private static func appendLimit(
        _ limit: Int64?, _ speaking: ResumableUploadProtocol, engine: any Transport
    ) -> Int64? {
        #if canImport(FoundationNetworking)
            if speaking == .tus, engine is URLSessionTransport { return min(limit ?? .max, linuxTusAppendSize) }
        #endif
        return limit
    }

    /// The size of a tus append on URLSession on Linux: each is gathered in memory to be sent with
    /// its `Content-Length`, and URLSession copies it again, so the size bounds a large upload's
    /// memory: a 1 GiB upload's peak grew by 25–28 MiB with 4 MiB appends, 48–56 MiB with 8 MiB,
    /// 64 MiB with 32 MiB (scratch consumer against tuspyserver, 3 runs; loopback time no worse).
    static let linuxTusAppendSize: Int64 = 4 << 20

    /// Cancels the upload `state` names (`DELETE` to its resource); its state is removed when
    /// the server answers with a success or the resource is gone, and kept otherwise.
    private func cancel(
        _ state: UploadState, _ request: TransportRequest, _ context: ExchangeContext, _ chain: StageChain.Next,
        _ stateURL: URL
    ) async throws -> TransportResponse {
        let delete = uploadRequest(state.location, method: "DELETE", from: request, speaking: state.speaking)
        let response = try await Provider<MultiTarget>.send(Self.bodiless(request, delete), through: chain, context)
        if state.speaking.endsUpload(response.statusCode) { try? FileManager.default.removeItem(at: stateURL) }
        return response
    }
}
