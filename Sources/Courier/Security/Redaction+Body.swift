import Foundation

extension Redaction {
    /// A body as it may be shown: the values of fields, members and parts named in ``fieldNames``
    /// (at any depth, nested names included) read ``mask``.
    ///
    /// - A form (`application/x-www-form-urlencoded`): its fields.
    /// - JSON (`…json`, or text that starts with `{` or `[`): its members. Text that does not parse
    ///   whole (JSON Lines, `application/x-ndjson`, a `json-seq`, or the start of a body cut at a
    ///   limit) is read member by member, so a credential's value is hidden even when the body
    ///   ends inside it.
    /// - A `multipart/form-data` body: a part whose name is a credential's reads ``mask``; the
    ///   other parts are redacted by their own `Content-Type`.
    ///
    /// Other bodies are returned as they are.
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: Its `Content-Type`, when known.
    /// - Returns: The body, redacted.
    public func body(_ data: Data, contentType: String?) -> Data {
        guard !data.isEmpty, !fieldNames.isEmpty else { return data }
        let type = contentType?.lowercased() ?? ""
        if type.contains("x-www-form-urlencoded") {
            return Data(redactedPairs(String(decoding: data, as: UTF8.self)).utf8)
        }
        if type.hasPrefix("multipart/"), let boundary = MultipartRedaction.boundary(of: contentType ?? "") {
            return MultipartRedaction(redaction: self, boundary: boundary).redacted(data)
        }
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        guard type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return data }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return JSONTextRedaction(redaction: self).redacted(data)
        }
        var changed = false
        let redacted = redactedJSON(object, changed: &changed)
        guard changed,
            let text = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed])
        else { return data }
        return text
    }

    private func redactedJSON(_ value: Any, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy = object
            for (key, member) in object {
                if hidesField(key) {
                    copy[key] = Self.mask
                    changed = true
                } else {
                    copy[key] = redactedJSON(member, changed: &changed)
                }
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map { redactedJSON($0, changed: &changed) }
        }
        return value
    }
}
