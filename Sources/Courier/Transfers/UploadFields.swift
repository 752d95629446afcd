/// The fields of resumable uploads (draft-ietf-httpbis-resumable-upload), read as the draft's
/// Structured Field Values (RFC 9651) they are: `Upload-Complete: ?1` (a boolean),
/// `Upload-Offset: 42` (an integer), `Upload-Limit: max-size=1000, max-append-size=100` (a
/// dictionary). A value that is not well formed is absent, never guessed.
enum UploadFields {
    /// The interop version of the draft Courier speaks, in `Upload-Draft-Interop-Version`.
    static let interopVersion = 6
    /// The content type of an append's body (interop version 6 and later).
    static let partialUploadType = "application/partial-upload"
    /// The version of tus Courier speaks, in `Tus-Resumable`.
    static let tusVersion = "1.0.0"
    /// The content type of a tus append's body.
    static let tusAppendType = "application/offset+octet-stream"

    /// A boolean item: `?1` or `?0`.
    static func boolean(_ text: String?) -> Bool? {
        switch text?.trimmingSpacesAndTabs {
        case "?1": true
        case "?0": false
        default: nil
        }
    }

    /// The text of a boolean item.
    static func text(_ value: Bool) -> String {
        value ? "?1" : "?0"
    }

    /// A non-negative integer item of at most 15 digits (RFC 9651's limit).
    static func integer(_ text: String?) -> Int64? {
        text?.trimmingSpacesAndTabs.nonNegativeInteger(maximumDigits: 15)
    }

    /// The members of `Upload-Limit` Courier reads: `max-size` and `max-append-size`. Members
    /// with parameters or of other types are skipped.
    static func limits(_ text: String?) -> (maxSize: Int64?, maxAppendSize: Int64?) {
        guard let text else { return (nil, nil) }
        var limits: (maxSize: Int64?, maxAppendSize: Int64?) = (nil, nil)
        for member in text.split(separator: ",") {
            let parts = member.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpacesAndTabs }
            guard parts.count == 2, let value = integer(parts[1]) else { continue }
            switch parts[0] {
            case "max-size": limits.maxSize = value
            case "max-append-size": limits.maxAppendSize = value
            default: continue
            }
        }
        return limits
    }
}
