/// The protocol a resumable upload speaks with its server (see
/// ``Provider/upload(_:resumingFrom:speaking:stateDirectory:progress:)``).
///
/// Both have the same shape: a request creates an upload resource (its `Location`), `PATCH`
/// requests append bytes at an offset (`Upload-Offset`), and after a failure a `HEAD` asks the
/// resource for its offset; `DELETE` cancels it.
public enum ResumableUploadProtocol: String, Sendable, Hashable, Codable {
    /// The IETF's resumable uploads draft (draft-ietf-httpbis-resumable-upload), interop version
    /// 6 (`Upload-Draft-Interop-Version: 6`), as SwiftNIO's `NIOResumableUpload` and Apple's
    /// URLSession speak it: the creation is the target's own request, and the server's answer to
    /// the last append is its answer to the upload (a `200` with a body, say).
    case ietfDraft
    /// tus 1.0.0 (tus.io) with its `creation` and `termination` extensions (`Tus-Resumable:
    /// 1.0.0`): the target's request creates the upload at once (`Upload-Length`; no `OPTIONS`
    /// first, as tus clients do), appends are `application/offset+octet-stream`, and the answer
    /// to the upload is the last append's (a `204`): tus servers report what they did with an
    /// upload by other means. A creation answered with a success that is not tus's fails with
    /// ``TransferError/resumableUploadsNotSupported(_:)``.
    case tus
}
