import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a ``ResumableDownload`` keeps beside its partial file to resume it, in a later attempt or
/// a later process: the representation's strong validator (for `If-Range`), its length, and the
/// resource it came from.
struct ResumeState: Codable, Sendable, Equatable {
    /// The format of the file; another is ignored (the download starts over).
    var version = 1
    /// The resource, without its query (a signed URL's query changes between calls).
    let resource: String
    /// A strong entity tag, or an HTTP date (`Last-Modified`) the server gave at least a second
    /// before its `Date` (RFC 9110 §8.8.2.2).
    let validator: String
    /// The representation's whole length, when the server said.
    let total: Int64?

    /// The state for a whole response (200) or a first range (206) of `url`, or `nil` when the
    /// response has no strong validator: such a download cannot be resumed safely.
    init?(response fields: HeaderFields, url: URL?, total: Int64?) {
        guard let validator = Self.strongValidator(fields) else { return nil }
        self.resource = Self.resource(of: url)
        self.validator = validator
        self.total = total
    }

    /// The resource `url` names, as the state compares it.
    static func resource(of url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private static func strongValidator(_ fields: HeaderFields) -> String? {
        if let tag = fields["ETag"]?.trimmingCharacters(in: .whitespaces), tag.hasPrefix("\""), tag.count >= 2,
            tag.hasSuffix("\"")
        {
            return tag
        }
        guard let text = fields["Last-Modified"], let modified = HTTPDate.parse(text),
            let sent = fields["Date"].flatMap(HTTPDate.parse), sent.timeIntervalSince(modified) >= 1
        else { return nil }
        return text
    }

    /// Reads the state at `url`; `nil` when there is none or it cannot be read.
    static func read(_ url: URL) -> ResumeState? {
        guard let data = try? Data(contentsOf: url), let state = try? JSONDecoder().decode(Self.self, from: data),
            state.version == 1
        else { return nil }
        return state
    }

    /// Writes the state to `url` in one rename, so that a reader never sees half of it.
    /// - Returns: `false` when it could not be written.
    func write(to url: URL) -> Bool {
        guard let data = try? JSONEncoder().encode(self) else { return false }
        return data.writeReplacing(url)
    }
}
