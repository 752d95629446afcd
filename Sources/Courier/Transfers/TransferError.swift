import Foundation

/// Why an upload or a download could not be carried out.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file to upload (or a multipart part's file) does not exist or cannot be read.
    case fileNotReadable(URL)
    /// A multipart stream part gave another number of bytes than it declared.
    case streamLengthMismatch(part: String, expected: UInt64, actual: UInt64)
    /// A multipart stream part failed while it was read.
    case streamFailed(part: String)
    /// The body or the download could not be written to this file.
    case cannotWriteFile(URL)
    /// A file is already at the download's destination, and the options do not allow replacing it.
    case destinationExists(URL)
    /// The downloaded file could not be moved to its destination.
    case cannotMoveDownload(to: URL)
    /// The download's destination is a folder; Courier never removes one to make room.
    case destinationIsDirectory(URL)
    /// The request's body is a stream that can be read only once (``UploadStream/isReplayable``
    /// is `false`), so the request is not sent again: not retried, not resent, not redirected
    /// with its body.
    case streamNotReplayable
    /// The body is an asynchronous sequence of chunks, which has no `InputStream`: read it with
    /// ``UploadStream/chunks()``.
    case streamIsAsynchronous
    /// An asynchronous body gave no chunk for this many seconds while it was read before sending
    /// (URLSession sends such a body once it has it whole): a body that waits for the answer, as a
    /// full-duplex exchange does, can never be sent this way. Use AsyncHTTPClient for full duplex.
    case streamStalled(part: String, seconds: TimeInterval)
    /// Another resumable download into this destination is running (in this process or another):
    /// two writers would interleave their bytes in its partial file.
    case downloadInProgress(URL)
    /// The server answered a resumed download with a range other than the one asked for (its
    /// `Content-Range`, a `Content-Length` that is not that range's length, or a body longer than
    /// that range): nothing of it was kept, and the partial file is as it was.
    case rangeMismatch(expected: String, received: String)
    /// The server of a resumable upload gave no usable offset for its upload resource (at this
    /// URL), or kept answering with another offset than the one the upload was sent from.
    case uploadOffsetMismatch(URL)
    /// The server of a resumable upload takes uploads of at most this many bytes (its
    /// `Upload-Limit`'s `max-size`), fewer than the file has: nothing of it was sent.
    case uploadTooLarge(limit: Int64)
    /// A resumable upload's stream does not say how many bytes it has (its `length` is `nil`):
    /// an upload resumes at an offset of a known length.
    case uploadLengthUnknown
    /// The server answered a tus upload's creation with a success that is not tus's (no
    /// `Tus-Resumable`): it does not speak the protocol, and took the creation as a plain request.
    case resumableUploadsNotSupported(ResumableUploadProtocol)
    /// Another upload of the same content to the same resource is running (in this process or
    /// another): it holds the upload's lock.
    case uploadInProgress
    /// The upload to cancel has no state any more (another call finished or cancelled it).
    case noUploadToCancel

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .fileNotReadable(let url): "Cannot read the file \(url.path) to upload."
        case .streamLengthMismatch(let part, let expected, let actual):
            "The stream of part '\(part)' gave \(actual) bytes; it declared \(expected)."
        case .streamFailed(let part): "The stream of part '\(part)' failed while it was read."
        case .cannotWriteFile(let url): "Cannot write the file \(url.path)."
        case .destinationExists(let url):
            "A file is already at \(url.path); pass .removePreviousFile to replace it."
        case .cannotMoveDownload(let url): "Cannot move the downloaded file to \(url.path)."
        case .destinationIsDirectory(let url):
            "The download's destination \(url.path) is a folder; choose a file name inside it."
        case .streamNotReplayable:
            "The request was not sent again: its body is a stream that can be read only once."
        case .streamIsAsynchronous:
            "The body is an asynchronous sequence of chunks, not an InputStream: read it with UploadStream.chunks()."
        case .streamStalled(let part, let seconds):
            "The stream of '\(part)' gave nothing for \(seconds) s while it was read before sending; a body that "
                + "waits for the answer (full duplex) cannot be sent through URLSession: use AsyncHTTPClientTransport."
        case .downloadInProgress(let url):
            "Another download into \(url.path) is running; it holds the partial file."
        case .uploadTooLarge(let limit):
            "The server takes uploads of at most \(limit) bytes; the file is larger, and nothing was sent."
        case .uploadLengthUnknown:
            "A resumable upload's stream must have a length: the upload resumes at an offset of a known length."
        case .resumableUploadsNotSupported(let spoken):
            "The server answered the upload's creation without speaking \(spoken == .tus ? "tus" : "the resumable uploads draft"); "
                + "the file was not sent."
        case .uploadInProgress:
            "Another upload of the same content to the same resource is running; it holds the upload's lock."
        case .noUploadToCancel:
            "There is no upload to cancel: another call finished or cancelled it."
        case .uploadOffsetMismatch(let url):
            "The server gave no usable offset for the upload at \(url.absoluteString)."
        case .rangeMismatch(let expected, let received):
            "The server answered the resumed download with \(received), not \(expected); the partial file is unchanged."
        }
    }
}
