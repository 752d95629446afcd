import Foundation

extension Redaction {
    /// A body as it may be shown: in a form (`application/x-www-form-urlencoded`) or JSON body,
    /// the values of fields and members named in ``fieldNames`` (at any depth) read ``mask``.
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
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        guard type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return data }
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return data
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
