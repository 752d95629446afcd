import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a ``ResumableDownload``: asks the provider's chain of stages for the bytes the
/// partial file lacks (`Range` and `If-Range` with the saved validator), appends a 206's range
/// after checking its `Content-Range`, starts over on a 200, and returns the whole file as a 200
/// once complete. It is put above the provider's chain only for such a download, so it costs
/// nothing to any other request; every piece goes through the chain (the cache passes ranges through; the
/// resilience policy, time limits and redirects apply to each piece).
///
/// A failure while the body arrives leaves the bytes received on disk and the state beside them,
/// so the next attempt (a retry) or the next call resumes from there. Without a strong validator
/// a download cannot be resumed safely: the partial file is then emptied on failure.
struct ResumeStage: Stage {
    /// The download's destination.
    let destination: URL

    /// What a response to a piece means for the file.
    private enum Answer {
        /// The whole representation, from its first byte (a 200); not resumable when the server
        /// encoded it anyway (a range of encoded bytes cannot be appended to decoded ones).
        case whole(total: Int64?, resumable: Bool)
        /// The range asked for, from the end of the partial file (`nil` when its `Content-Range`,
        /// given as `announced`, is not one byte range).
        case rest(ClosedRange<Int64>?, total: Int64?, announced: String?)
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
    func send(
        _ request: TransportRequest, _ context: ExchangeContext, next chain: StageChain.Next
    ) async throws -> TransportResponse {
        let (partial, saved) = try open(for: request)
        defer { partial.close() }
        var state = saved
        var restarted = false
        while true {
            let have = partial.length
            let response = try await chain(Self.piece(of: request, from: have, state: state), context)
            let body = response.stream ?? TransportBody(response.data)
            switch Self.answer(to: response, have: have, state: state) {
            case .whole(let total, let resumable):
                try restart(partial)
                state =
                    resumable
                    ? ResumeState(response: response.headerFields, url: request.urlRequest.url, total: total) : nil
                try save(state)
                try await receive(
                    body, into: partial, limit: nil, total: total, resumable: state != nil, request: request)
                return finished(response, partial: partial, request: request)
            case .rest(let range, let total, let announced):
                guard let range, range.lowerBound == have else {
                    throw TransferError.rangeMismatch(
                        expected: "bytes \(have)-", received: announced ?? "no Content-Range")
                }
                try await receive(body, into: partial, limit: range, total: total, resumable: true, request: request)
                guard let total, partial.length < total else {
                    return finished(response, partial: partial, request: request)
                }
            case .complete:
                return finished(response, partial: partial, request: request)
            case .unsatisfiable where !restarted:
                restarted = true
                state = nil
                try restart(partial)
            case .unsatisfiable, .rejected:
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

    private static func answer(to response: TransportResponse, have: Int64, state: ResumeState?) -> Answer {
        switch response.statusCode {
        case 200:
            let fields = response.headerFields
            let encoded = fields["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
            let length = encoded ? nil : fields["Content-Length"].flatMap { Int64($0) }
            return .whole(total: length, resumable: !encoded)
        case 206:
            // Checked before its body is read: a wrong range is an error, never appended.
            let announced = response.headerFields["Content-Range"]
            let range = announced.flatMap(ContentRange.init)
            return .rest(range?.bytes, total: range?.total ?? state?.total, announced: announced)
        case 416 where have > 0:
            let announced = response.headerFields["Content-Range"].map { ContentRange($0)?.total }
            let whole = state?.total == have && (announced == nil || announced == have)
            return whole ? .complete : .unsatisfiable
        default:
            return .rejected
        }
    }
}

extension ResumeStage {
    /// Appends `body` to `partial`: all of it, or, for a range, exactly the range (which starts
    /// at the partial file's end). Reports the progress of the whole file (`total` bytes). When
    /// the body fails, what arrived stays on disk if the download can be `resumable`, and is
    /// emptied if not.
    private func receive(
        _ body: TransportBody, into partial: PartialDownload, limit range: ClosedRange<Int64>?, total: Int64?,
        resumable: Bool, request: TransportRequest
    ) async throws {
        let start = partial.length
        let expected = range.map { $0.upperBound - $0.lowerBound + 1 }
        var received: Int64 = 0
        do {
            for try await chunk in body {
                if let expected, received + Int64(chunk.count) > expected {
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
    /// ranges presents it (RFC 9110 §14.4, RFC 9111 §3.4), whatever pieces it took.
    private func finished(
        _ last: TransportResponse, partial: PartialDownload, request: TransportRequest
    ) -> TransportResponse {
        let total = partial.length
        partial.close()
        try? FileManager.default.removeItem(at: ResumableDownload.stateURL(of: destination))
        var fields = last.headerFields
        fields.removeAll(named: "Content-Range")
        fields.removeAll(named: "Content-Length")
        fields.append(name: "Content-Length", value: String(total))
        let url = last.response?.url ?? request.urlRequest.url ?? destination
        var response = TransportResponse(
            statusCode: 200, headerFields: fields, url: url, data: Data(), fileURL: partial.url)
        response.keepRecords(of: last)
        return response
    }

    /// A response that is not the file: returned with the start of its body, for the error (the
    /// rest is left unread, which ends the transfer).
    private static func rejected(_ response: TransportResponse, body: TransportBody) async throws -> TransportResponse {
        var start = Data()
        var iterator = body.makeAsyncIterator()
        while start.count < DownloadPlacement.errorBodyLimit, let chunk = try await iterator.next() {
            start.append(chunk.prefix(DownloadPlacement.errorBodyLimit - start.count))
        }
        return response.withData(start)
    }
}
