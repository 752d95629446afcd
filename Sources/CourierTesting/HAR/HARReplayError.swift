import Foundation

/// Why a ``HARReplayer`` could not answer.
///
/// Later versions may add cases: a `switch` over it needs a `default`.
public enum HARReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HAR file could not be read, or is not HAR 1.2.
    case unreadable(URL, reason: String)
    /// No recorded entry matches the request: what was asked, and the nearest entries with why
    /// each does not match.
    case unmatched(request: String, nearest: [String])
    /// The matching entry's body was not recorded whole (longer than the recorder kept, or left
    /// out by the tool that wrote the file): replaying it would be a truncated answer.
    case bodyNotRecorded(request: String, recorded: Int, size: Int)
    /// The matching entry's recorded size disagrees with the bytes its body stands for (its text
    /// in `charset`, or its Base64): the file does not say which bytes were answered.
    case bodySizeMismatch(request: String, size: Int, bytes: Int, charset: String?)
    /// The matching entry's text cannot be turned back into bytes: its charset is one Courier
    /// does not know, or the text holds a character that charset cannot encode.
    case textNotEncodable(request: String, charset: String)

    /// A sentence describing the problem: for an unmatched request, the request and the nearest
    /// recorded entries with their differences.
    public var description: String {
        switch self {
        case .unreadable(let url, let reason):
            return "Cannot read the HAR file \(url.path): \(reason)."
        case .bodyNotRecorded(let request, let recorded, let size):
            return "The recorded answer to \(request) has \(recorded) of its \(size) body bytes; record it again "
                + "with a larger HARRecorder.maximumBodyBytes (or a tool that keeps the whole body)."
        case .bodySizeMismatch(let request, let size, let bytes, let charset):
            let form = charset.map { "its text in \($0)" } ?? "its body"
            return "The recorded answer to \(request) says its body has \(size) bytes, but \(form) is \(bytes) "
                + "bytes: the file does not say which bytes were answered."
        case .textNotEncodable(let request, let charset):
            return "The recorded answer to \(request) is a text in the charset \(charset), which Courier cannot "
                + "encode it in: record its body in Base64 (`\"encoding\": \"base64\"`)."
        case .unmatched(let request, let nearest):
            guard !nearest.isEmpty else { return "No recorded entry matches \(request): the file has none left." }
            return "No recorded entry matches \(request). Nearest:\n"
                + nearest.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}
