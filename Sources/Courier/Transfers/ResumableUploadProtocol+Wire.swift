import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What each protocol puts on the wire and reads from it; ``UploadResumeStage`` runs the steps
/// they share.
extension ResumableUploadProtocol {
    /// What the server said of an append.
    enum AppendOutcome {
        /// The upload's requests end: the response is the answer to it (only a success or a
        /// resource that is gone ends the upload itself; see ``ResumableUploadProtocol/endsUpload(_:)``).
        case finished
        /// The bytes were taken; the server has this many.
        case advanced(to: Int64)
        /// The server has another offset (409): this one, or unknown (ask it with `HEAD`).
        case conflict(Int64?)
    }

    /// Marks a request to the server as this protocol's (its version field).
    func mark(_ request: inout URLRequest) {
        switch self {
        case .ietfDraft:
            request.setValue(String(UploadFields.interopVersion), forHTTPHeaderField: "Upload-Draft-Interop-Version")
        case .tus:
            request.setValue(UploadFields.tusVersion, forHTTPHeaderField: "Tus-Resumable")
        }
    }

    /// Whether an answer to `OPTIONS` comes from a server that speaks this protocol.
    func isSpoken(in fields: HeaderFields) -> Bool {
        switch self {
        case .ietfDraft:
            fields["Upload-Limit"] != nil || fields["Upload-Draft-Interop-Version"] != nil
        case .tus:
            (fields["Tus-Version"] ?? fields["Tus-Resumable"] ?? "").split(separator: ",")
                .contains { $0.trimmingCharacters(in: .whitespaces) == UploadFields.tusVersion }
        }
    }

    /// The limits an answer announces: the draft's `Upload-Limit`, tus's `Tus-Max-Size`.
    func limits(in fields: HeaderFields) -> UploadLimits {
        switch self {
        case .ietfDraft:
            let limits = UploadFields.limits(fields["Upload-Limit"])
            return UploadLimits(maxSize: limits.maxSize, maxAppendSize: limits.maxAppendSize)
        case .tus:
            return UploadLimits(maxSize: UploadFields.integer(fields["Tus-Max-Size"]), maxAppendSize: nil)
        }
    }

    /// The fields of the creation request (the target's, its body left out) for `length` bytes
    /// named `name`. A tus upload describes its file in `Upload-Metadata` (`filename` and
    /// `filetype`, as tus clients such as Uppy's do, and as some servers need to resume after a
    /// restart) unless the target set that field.
    func create(_ request: inout URLRequest, length: Int64, name: String) {
        mark(&request)
        request.setValue(String(length), forHTTPHeaderField: "Upload-Length")
        request.setValue("0", forHTTPHeaderField: "Content-Length")
        switch self {
        case .ietfDraft:
            request.setValue(UploadFields.text(false), forHTTPHeaderField: "Upload-Complete")
        case .tus where request.value(forHTTPHeaderField: "Upload-Metadata") == nil:
            let type = MIMEType.forPathExtension((name as NSString).pathExtension)
            let metadata = [("filename", name), ("filetype", type)].map { key, value in
                "\(key) \(Data(value.utf8).base64EncodedString())"
            }
            request.setValue(metadata.joined(separator: ","), forHTTPHeaderField: "Upload-Metadata")
        case .tus:
            break
        }
    }

    /// Checks the answer to a creation: a tus server marks every answer with `Tus-Resumable`, so a
    /// success without it comes from a server that took the creation as a plain (empty) upload.
    /// - Throws: ``TransferError/resumableUploadsNotSupported(_:)`` for such an answer.
    func checkCreation(_ response: TransportResponse) throws(TransferError) {
        guard self == .tus, (200..<300).contains(response.statusCode), response.headerFields["Tus-Resumable"] == nil
        else { return }
        throw .resumableUploadsNotSupported(self)
    }

    /// Whether an answer to `HEAD` says the resource is gone (the upload then starts over).
    func isGone(_ status: Int) -> Bool {
        // tus lets a server answer 403 for an upload it does not know.
        status == 404 || status == 410 || (self == .tus && status == 403)
    }

    /// Whether an answer to a request of the upload ends it, so that its state goes: a success,
    /// or a resource that is gone. Any other status (a 401 before a refresh, a 408, a 429, a
    /// 5xx) is the attempt's answer, and the state stays for the retry or the next call to resume.
    func endsUpload(_ status: Int) -> Bool {
        (200..<300).contains(status) || isGone(status)
    }

    /// Whether the resource is complete, by an answer to `HEAD` that gave `offset`.
    func isComplete(_ fields: HeaderFields, offset: Int64, length: Int64) -> Bool {
        switch self {
        case .ietfDraft: UploadFields.boolean(fields["Upload-Complete"]) == true
        case .tus: offset == (UploadFields.integer(fields["Upload-Length"]) ?? length)
        }
    }

    /// The fields of an append of bytes from `offset`; `last` when they end the file.
    func append(_ request: inout URLRequest, from offset: Int64, last: Bool) {
        request.setValue(String(offset), forHTTPHeaderField: "Upload-Offset")
        switch self {
        case .ietfDraft:
            request.setValue(UploadFields.text(last), forHTTPHeaderField: "Upload-Complete")
            request.setValue(UploadFields.partialUploadType, forHTTPHeaderField: "Content-Type")
        case .tus:
            request.setValue(UploadFields.tusAppendType, forHTTPHeaderField: "Content-Type")
        }
    }

    /// What the answer to an append of the bytes up to `end` (`last` when that is the file's
    /// end) means.
    func outcome(of response: TransportResponse, end: Int64, last: Bool) -> AppendOutcome {
        let offset = UploadFields.integer(response.headerFields["Upload-Offset"])
        if response.statusCode == 409 { return .conflict(offset) }
        switch self {
        case .ietfDraft where last:
            return .finished
        case .ietfDraft, .tus:
            guard (200..<300).contains(response.statusCode) else { return .finished }
            let reached = offset ?? end
            return self == .tus && last && reached == end ? .finished : .advanced(to: reached)
        }
    }
}

/// The sizes a server of resumable uploads takes: the whole upload's, one append's.
struct UploadLimits: Sendable, Equatable {
    var maxSize: Int64?
    var maxAppendSize: Int64?

    /// These limits, with those `other` announces where it announces any.
    func updated(by other: UploadLimits) -> UploadLimits {
        UploadLimits(maxSize: other.maxSize ?? maxSize, maxAppendSize: other.maxAppendSize ?? maxAppendSize)
    }
}
