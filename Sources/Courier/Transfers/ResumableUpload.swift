import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An upload of a file that survives a dropped connection, a server restart and the end of the
/// process, by the IETF's resumable uploads draft: see
/// ``Provider/upload(_:resumingFrom:speaking:stateDirectory:progress:)``.
///
/// Courier speaks the draft's interop version 6 (`Upload-Draft-Interop-Version: 6`, as
/// SwiftNIO's `NIOResumableUpload` and Apple's URLSession on iOS 17 and later do): it creates the
/// upload resource with an empty first request, appends the file to it with `PATCH`, and after a
/// failure asks it for its offset with `HEAD` and appends the rest. The resource's URL is kept in
/// a state file (in ``defaultStateDirectory`` unless you name another folder), named after the
/// request and the file, so that a later call, in this process or the next, resumes the upload.
public enum ResumableUpload {
    /// Where uploads keep their state unless told otherwise: a `courier-uploads` folder in the
    /// temporary folder. Name a folder of your own (Application Support, say) for uploads that
    /// must survive the system cleaning the temporary folder.
    public static var defaultStateDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-uploads", isDirectory: true)
    }

    /// The draft's interop version Courier sends and understands.
    public static var interopVersion: Int { UploadFields.interopVersion }
}

/// What a resumable upload sends, where its state is kept, the protocol it speaks, whether the
/// request cancels it instead, and whether a failed attempt of it can be resumed
/// (``RequestContext/resumesTransfer``): not while its creation's answer is awaited (a retry could
/// make a second upload resource), nor when the server does not take resumable uploads (it gets a
/// plain request); then the attempt is retried only as its method allows.
struct ResumableUploadSource: Sendable {
    let content: UploadSource.Content
    let stateDirectory: URL
    let speaking: ResumableUploadProtocol
    /// Whether the request cancels the upload (`DELETE` to its resource) rather than sending it.
    var cancelling = false
    /// Whether a failed attempt can be resumed: set by the upload's stage, `false` from the moment
    /// its creation is sent until its state is saved, and when the server does not take
    /// resumable uploads.
    let resumable = Locked(true)
}
