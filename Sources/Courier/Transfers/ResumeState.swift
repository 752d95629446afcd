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
    /// The resource: its URL without the fragment and without the query items that only sign it
    /// (see ``resource(of:)``).
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

    /// The resource `url` names, as the state compares it: the URL with its query, so that two
    /// resources that differ by their query never share a partial file, but without the fragment
    /// and the query items that only sign a presigned URL, whose values change between calls for
    /// the same object (``signingQueryItems``).
    static func resource(of url: URL?) -> String {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "" }
        components.fragment = nil
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { !isSigning($0.name) }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? url.absoluteString
    }

    /// The names of the query items that sign a URL rather than name a resource: AWS Signature
    /// Version 2 and CloudFront's (`X-Amz-` and `X-Goog-` items, which begin with those prefixes,
    /// are left out too: Signature Version 4 and Google Cloud Storage's).
    static let signingQueryItems: Set<String> = ["awsaccesskeyid", "signature", "expires", "key-pair-id", "policy"]

    /// Whether the query item `name` only signs the URL.
    private static func isSigning(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.hasPrefix("x-amz-") || name.hasPrefix("x-goog-") || signingQueryItems.contains(name)
    }

    /// Whether a 206's `fields` carry this state's validator, so that its range may be appended:
    /// parts of a representation combine only under the same strong validator (RFC 9110
    /// §15.3.7.3), and a server that ignores `If-Range` sends the range of another version with
    /// another one (or none, where the 200 had one, which RFC 9110 §15.3.7 forbids).
    func isValidator(of fields: HeaderFields) -> Bool {
        if validator.hasPrefix("\"") { return fields["ETag"]?.trimmingCharacters(in: .whitespaces) == validator }
        guard let saved = HTTPDate.parse(validator), let sent = fields["Last-Modified"].flatMap(HTTPDate.parse) else {
            return false
        }
        return saved == sent
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
