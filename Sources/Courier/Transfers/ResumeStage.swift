import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a ``ResumableDownload``: asks the provider's chain of stages for the bytes the
/// partial file lacks (`Range` and `If-Range` with the saved validator), appends a 206's range
/// after checking its `Content-Range`, its `Content-Length` and its validator, starts over on a 200
/// (or a 206 of another version), and returns the whole file as a 200 once complete. It is the
/// first stage of the chain only for such a download, so it costs nothing to any other request;
/// every piece goes through the stages below it (the jar, the cache passing ranges through, the
/// resilience policy, redirects, the trust gate and the engine apply to each piece), and over an
/// engine that does not enforce time
/// limits itself, each wait of a piece is bounded here (``PieceTimeLimit``).
///
/// A failure while the body arrives leaves the bytes received on disk and the state beside them,
/// so the next attempt (a retry) or the next call resumes from there; an answer found to lie (a
/// body longer than its range) is taken back first. Without a strong validator a download cannot
/// be resumed safely: the partial file is then emptied on failure.
struct ResumeStage: Stage {
    /// The download's destination.
    let destination: URL

    /// What a response to a piece means for the file.
    private enum Answer {
        /// The whole representation, from its first byte (a 200); not resumable when the server
        /// encoded it anyway (a range of encoded bytes cannot be appended to decoded ones).
        case whole(total: Int64?, resumable: Bool)
        /// The range asked for, from the end of the partial file, checked.
        case rest(ClosedRange<Int64>, total: Int64?)
        /// A range of another version than the partial file's (its validator differs): a server
        /// that ignored `If-Range`. Nothing of it may be appended.
        case otherVersion
        /// The range cannot be served (416): the representation is shorter than the partial file.
        case unsatisfiable
        /// The range cannot be served (416) because the partial file is already whole: its
        /// length is the state's and the `Content-Range`'s (a process ended before it was moved).
        case complete
        /// Any other status: returned as it is, its body's start in memory.
        case rejected
    }

    /// Sends the pieces of `request` through `chain` (the rest of the provider's chain) until the
    /// file is whole.
    ///
    /// `@concurrent`: every chunk of the body is written to the partial file here, and the state
    /// file beside it read and written, blocking file I/O that grows with the download and must
    /// not run on an app's main actor when it awaits the download there. The pieces' stages below
    /// run off it too.
    #if hasAttribute(concurrent)
        @concurrent
    #endif
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next chain: StageChain.Next
    ) async throws -> TransportResponse {
        let (partial, saved) = try open(for: request)
        defer { partial.close() }
        let limit = PieceTimeLimit(request, context)
        var state = saved
        var restarted = false
        while true {
            let have = partial.length
            let piece = Self.piece(of: request, from: have, state: state)
            let response = try await limit.bound { try await chain(piece, context) }
            let body = Received(body: response.stream ?? TransportBody(response.data), limit: limit)
            switch try Self.answer(to: response, have: have, state: state) {
            case .whole(let total, let resumable):
                try restart(partial)
                state =
                    resumable
                    ? ResumeState(response: response.headerFields, url: request.urlRequest.url, total: total) : nil
                try save(state)
                try await receive(
                    body, into: partial, limit: nil, total: total, resumable: state != nil, request: request)
                return try finished(response, partial: partial, request: request)
            case .rest(let range, let total):
                try await receive(body, into: partial, limit: range, total: total, resumable: true, request: request)
                guard let total, partial.length < total else {
                    return try finished(response, partial: partial, request: request)
                }
            case .complete:
                return try finished(response, partial: partial, request: request)
            case .unsatisfiable where !restarted, .otherVersion where !restarted:
                restarted = true
                state = nil
                try restart(partial)
            case .unsatisfiable, .otherVersion, .rejected:
                return try await Self.rejected(response, body: body)
            }
        }
    }

    /// The request for the bytes after the first `have`: the whole representation when there are
    /// none (or nothing to check them against), never encoded (a range of a compressed body cannot
    /// be appended to), and read as it arrives.
    private static func piece(of request: TransportRequest, from have: Int64, state: ResumeState?) -> TransportRequest {
        var piece = request
        piece.delivery = .stream
        piece.progress = nil
        piece.urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        piece.urlRequest.setValue(nil, forHTTPHeaderField: "Range")
        piece.urlRequest.setValue(nil, forHTTPHeaderField: "If-Range")
        if have > 0, let state {
            piece.urlRequest.setValue("bytes=\(have)-", forHTTPHeaderField: "Range")
            piece.urlRequest.setValue(state.validator, forHTTPHeaderField: "If-Range")
        }
        return piece
    }

    /// What `response` means for a partial file of `have` bytes under `state`, read from its head
    /// alone: a 206 is checked before any of its body is read.
    /// - Throws: ``TransferError/rangeMismatch(expected:received:)`` for a 206 of another range
    ///   than the one asked for, or whose `Content-Length` is not its range's length.
    private static func answer(to response: TransportResponse, have: Int64, state: ResumeState?) throws -> Answer {
        let fields = response.headerFields
        switch response.statusCode {
        case 200:
            let encoded = fields["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
            let length = encoded ? nil : fields["Content-Length"].flatMap { Int64($0) }
            return .whole(total: length, resumable: !encoded)
        case 206:
            if let state, have > 0, !state.isValidator(of: fields) { return .otherVersion }
            let announced = fields["Content-Range"]
            guard let range = announced.flatMap(ContentRange.init), let bytes = range.bytes, bytes.lowerBound == have
            else {
                throw TransferError.rangeMismatch(expected: "bytes \(have)-", received: announced ?? "no Content-Range")
            }
            let count = bytes.upperBound - bytes.lowerBound + 1
            if let length = fields["Content-Length"], Int64(length.trimmingSpacesAndTabs) != count {
                throw TransferError.rangeMismatch(expected: "\(count) bytes", received: "a Content-Length of \(length)")
            }
            return .rest(bytes, total: range.total ?? state?.total)
        case 416 where have > 0:
            let announced = fields["Content-Range"].map { ContentRange($0)?.total }
            let whole = state?.total == have && (announced == nil || announced == have)
            return whole ? .complete : .unsatisfiable
        default:
            return .rejected
        }
    }
}

extension ResumeStage {
    /// A piece's body, each chunk waited for within the piece's time limit.
    private struct Received: Sendable {
        let body: TransportBody
        let limit: PieceTimeLimit

        /// Reads the chunks in order; each call of the returned closure gives the next one, or
        /// `nil` at the end.
        func chunks() -> @Sendable () async throws -> Data? {
            let iteration = body.makeAsyncIterator().iteration
            let limit = limit
            return { try await limit.bound { try await iteration.next() } }
        }
    }

    /// Appends `body` to `partial`: all of it, or, for a range, exactly the range (which starts
    /// at the partial file's end). Reports the progress of the whole file (`total` bytes). When
    /// the body fails, what arrived stays on disk if the download can be `resumable`, and is
    /// emptied if not; a body longer than its range is taken back whole (nothing a lying answer
    /// sent stays in the file).
    private func receive(
        _ body: Received, into partial: PartialDownload, limit range: ClosedRange<Int64>?, total: Int64?,
        resumable: Bool, request: TransportRequest
    ) async throws {
        let start = partial.length
        let expected = range.map { $0.upperBound - $0.lowerBound + 1 }
        var received: Int64 = 0
        let next = body.chunks()
        do {
            while let chunk = try await next() {
                if let expected, received + Int64(chunk.count) > expected {
                    guard partial.truncate(to: start) else { throw TransferError.cannotWriteFile(partial.url) }
                    throw TransferError.rangeMismatch(
                        expected: "\(expected) bytes", received: "more than \(expected) bytes")
                }
                guard partial.append(chunk) else { throw TransferError.cannotWriteFile(partial.url) }
                received += Int64(chunk.count)
                request.progress?(
                    TransferProgress(direction: .download, completedBytes: start + received, expectedBytes: total))
            }
            if let expected, received < expected {
                throw TransportFailure(kind: .connectionLost, underlyingError: URLError(.networkConnectionLost))
            }
        } catch {
            if !resumable { _ = partial.truncate() }
            throw error
        }
    }

    /// The partial file, locked, and its state when it is for `request`'s resource; without one,
    /// the file is emptied (nothing proves its bytes belong to the file the server has now).
    private func open(for request: TransportRequest) throws -> (PartialDownload, ResumeState?) {
        try? FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = try PartialDownload(ResumableDownload.partialURL(of: destination), destination: destination)
        let resource = ResumeState.resource(of: request.urlRequest.url)
        let state = ResumeState.read(ResumableDownload.stateURL(of: destination)).flatMap {
            $0.resource == resource ? $0 : nil
        }
        if state == nil { try restart(partial) }
        return (partial, state)
    }

    /// Empties the partial file and forgets its state: the download starts from the first byte.
    private func restart(_ partial: PartialDownload) throws {
        try? FileManager.default.removeItem(at: ResumableDownload.stateURL(of: destination))
        guard partial.truncate() else { throw TransferError.cannotWriteFile(partial.url) }
    }

    /// Keeps `state` beside the partial file (or none, for a download that cannot be resumed).
    private func save(_ state: ResumeState?) throws {
        let url = ResumableDownload.stateURL(of: destination)
        guard let state else { return }
        guard state.write(to: url) else { throw TransferError.cannotWriteFile(url) }
    }

    /// The whole file as the answer: a 200 of the whole representation, as a cache that joins
    /// ranges presents it (RFC 9110 §14.4, RFC 9111 §3.4), whatever pieces it took. The file is
    /// renamed (`NAME.courier-complete-UUID`) before its lock is released and its state deleted,
    /// so a download of the same destination that starts before it is moved into place begins a
    /// new partial file instead of emptying this one.
    /// - Throws: ``TransferError/cannotWriteFile(_:)`` when the file could not be renamed.
    private func finished(
        _ last: TransportResponse, partial: PartialDownload, request: TransportRequest
    ) throws -> TransportResponse {
        let total = partial.length
        let complete = destination.deletingLastPathComponent().appendingPathComponent(
            destination.lastPathComponent + ".courier-complete-\(UUID().uuidString)")
        guard partial.rename(to: complete) else { throw TransferError.cannotWriteFile(complete) }
        try? FileManager.default.removeItem(at: ResumableDownload.stateURL(of: destination))
        partial.close()
        var fields = last.headerFields
        fields.removeAll(named: "Content-Range")
        fields.removeAll(named: "Content-Length")
        fields.append(name: "Content-Length", value: String(total))
        let url = last.response?.url ?? request.urlRequest.url ?? destination
        var response = TransportResponse(
            statusCode: 200, headerFields: fields, url: url, data: Data(), fileURL: complete)
        response.keepRecords(of: last)
        return response
    }

    /// A response that is not the file: returned with the start of its body, for the error (the
    /// rest is left unread, which ends the transfer).
    private static func rejected(_ response: TransportResponse, body: Received) async throws -> TransportResponse {
        var start = Data()
        let next = body.chunks()
        while start.count < DownloadPlacement.errorBodyLimit, let chunk = try await next() {
            start.append(chunk.prefix(DownloadPlacement.errorBodyLimit - start.count))
        }
        return response.withData(start)
    }
}
