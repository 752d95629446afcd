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

    /// Where a body sent from elsewhere than `httpBody` comes from, as Moya's logger shows a body
    /// stream: `a file of 300 bytes`, `a multipart form of 2 parts`, `a stream of 10 bytes`; `nil`
    /// for the request's own body. Names and paths are left out: they may carry what redaction hides.
    static func source(_ body: TransportRequest.Body) -> String? {
        switch body {
        case .inline:
            return nil
        case .file(let url):
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
            return "a file" + (size.map { " of \($0) byte\($0 == 1 ? "" : "s")" } ?? "")
        case .multipart(let form):
            return "a multipart form of \(form.parts.count) part\(form.parts.count == 1 ? "" : "s")"
        case .stream(let stream):
            return "a stream" + (stream.length.map { " of \($0) byte\($0 == 1 ? "" : "s")" } ?? "")
        }
    }
}
