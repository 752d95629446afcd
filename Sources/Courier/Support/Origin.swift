import Foundation

/// A URL's origin: its scheme, host and port, compared case-insensitively, a default port
/// (80 for `http`, 443 for `https`) equal to no port.
struct Origin: Hashable, Sendable {
    let scheme: String?
    let host: String?
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased()
        host = url.host?.lowercased()
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }
}
