import Foundation

/// A URL's origin: its scheme, host and port, compared case-insensitively, a default port
/// (80 for `http`, 443 for `https`) equal to no port.
struct Origin: Hashable, Sendable {
    let scheme: String?
    let host: String?
    let port: Int?

    init(scheme: String?, host: String?, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    init(_ url: URL) {
        scheme = url.scheme.map(Self.lowercased)
        host = url.host.map(Self.lowercased)
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }

    /// `text` in lower case, without a copy when it already is (almost always, for a URL's
    /// scheme and host).
    private static func lowercased(_ text: String) -> String {
        let lower = text.utf8.withContiguousStorageIfAvailable { bytes in
            // One pass over the bytes: iterating the UTF-8 view by index costs ten times more.
            !bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") || $0 >= 0x80 }
        }
        return lower == true ? text : text.lowercased()
    }

    /// The origin as text, such as `https://api.example.com` or `http://localhost:8080`: a
    /// scheme's default port is left out.
    var text: String {
        let standard = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let portText = port.flatMap { $0 == standard ? nil : ":\($0)" } ?? ""
        return "\(scheme ?? "")://\(host ?? "")\(portText)"
    }
}
