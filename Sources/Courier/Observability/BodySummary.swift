import Foundation

/// How loggers show bodies: text as text, binary data as a one-line summary.
public enum BodySummary {
    /// The body as UTF-8 text, or `<N bytes of binary data>` when it is not text. A multi-byte
    /// character cut at the end by a size limit is dropped rather than turning the body binary.
    /// - Parameter data: The body, possibly cut to a size limit.
    /// - Returns: The text or the summary.
    @Sendable public static func text(_ data: Data) -> String {
        guard !data.isEmpty else { return "" }
        // Up to 3 trailing bytes may be the start of a character cut by a size limit; only bytes
        // that can appear inside a UTF-8 sequence (0x80 to 0xF4) are dropped, never the whole body.
        for trimmed in 0...min(3, data.count - 1) where data.suffix(trimmed).allSatisfy({ (0x80...0xF4).contains($0) })
        {
            if let text = String(data: data.dropLast(trimmed), encoding: .utf8), !text.utf8.contains(0) {
                return text
            }
        }
        return "<\(data.count) bytes of binary data>"
    }

    /// Whether a content type names binary data (images, audio, video, archives, PDFs, octet streams…).
    static func isBinary(contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        let binaryPrefixes = [
            "image/", "audio/", "video/", "font/", "application/octet-stream", "application/zip",
            "application/gzip", "application/pdf", "application/x-protobuf", "application/protobuf", "multipart/",
        ]
        return binaryPrefixes.contains { type.hasPrefix($0) }
    }

    /// `<N bytes of TYPE>`.
    static func binary(_ data: Data, contentType: String?) -> String {
        "<\(data.count) bytes of \(contentType ?? "binary data")>"
    }
}
