/// The MIME types Courier infers for files from their extensions.
enum MIMEType {
    private static let types: [String: String] = [
        "json": "application/json", "txt": "text/plain", "text": "text/plain", "html": "text/html",
        "htm": "text/html", "css": "text/css", "csv": "text/csv", "xml": "application/xml",
        "js": "text/javascript", "md": "text/markdown", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "heic": "image/heic",
        "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "wav": "audio/wav", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "wasm": "application/wasm", "bin": "application/octet-stream",
    ]

    /// The type for a path extension, or `application/octet-stream` for an unknown one.
    static func forPathExtension(_ pathExtension: String) -> String {
        types[pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
