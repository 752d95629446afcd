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
    ///   other parts are redacted by their own `Content-Type`. A body labelled multipart that
    ///   cannot be read as one reads ``mask`` whole.
    /// - Server-Sent Events (`text/event-stream`): each `data:` line as a body of its own.
    /// - Other text (`text/…`, or no `Content-Type`): a form's pairs when it reads as one, else
    ///   the credential members of any JSON it holds.
    ///
    /// Other bodies (images, `application/octet-stream`…) are returned as they are.
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: Its `Content-Type`, when known.
    /// - Returns: The body, redacted.
    public func body(_ data: Data, contentType: String?) -> Data {
        body(data, contentType: contentType, depth: 0)
    }

    /// ``body(_:contentType:)`` for a body `depth` levels inside multipart bodies.
    func body(_ data: Data, contentType: String?, depth: Int) -> Data {
        guard !data.isEmpty, !fieldNames.isEmpty || !credentialWords.isEmpty else { return data }
        let type = contentType?.lowercased() ?? ""
        if let encoding = Self.utf16Encoding(of: data, type: type),
            let text = String(data: data.count % 2 == 0 ? data : data.dropLast(), encoding: encoding)
        {
            // Read as UTF-8 (labelled so, or it would be taken for UTF-16 again), written back in
            // the body's own encoding.
            let utf8Type = type.replacingOccurrences(of: "charset=utf-16", with: "charset=utf-8")
            let redacted = body(Data(text.utf8), contentType: utf8Type, depth: depth)
            return String(decoding: redacted, as: UTF8.self).data(using: encoding) ?? Data(Self.mask.utf8)
        }
        if type.contains("x-www-form-urlencoded") {
            return Data(redactedPairs(String(decoding: data, as: UTF8.self)).utf8)
        }
        if type.hasPrefix("multipart/") {
            return MultipartRedaction(redaction: self, contentType: contentType ?? "", depth: depth).redacted(data)
        }
        if type.hasPrefix("text/event-stream") { return eventStream(data) }
        let first = data.first { !" \t\r\n".utf8.contains($0) }
        guard type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return type.isEmpty || type.hasPrefix("text/") ? text(data) : data
        }
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

    /// The UTF-16 encoding of a body that is in one: by its `charset`, its byte order mark, or an
    /// ASCII first character beside a zero byte (JSON, a form); `nil` for any other body.
    private static func utf16Encoding(of data: Data, type: String) -> String.Encoding? {
        let isText =
            type.isEmpty || type.hasPrefix("text/") || type.contains("json") || type.contains("form")
            || type.contains("utf-16")
        let bytes = data.prefix(2)
        guard isText, bytes.count == 2 else { return nil }
        let (first, second) = (bytes[bytes.startIndex], bytes[bytes.startIndex + 1])
        if (first, second) == (0xFF, 0xFE) || (first != 0 && second == 0 && first < 0x80) { return .utf16LittleEndian }
        if (first, second) == (0xFE, 0xFF) || (first == 0 && second != 0 && second < 0x80) { return .utf16BigEndian }
        return type.contains("charset=utf-16") ? .utf16 : nil
    }

    /// Text of no known kind: a form's pairs when it reads as one (a token answer sent as
    /// `text/plain`), else the credential members of any JSON in it.
    private func text(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let isForm =
            text.contains("=")
            && !text.unicodeScalars.contains { CharacterSet.whitespacesAndNewlines.contains($0) || $0 == "\"" }
        return isForm ? Data(redactedPairs(text).utf8) : JSONTextRedaction(redaction: self).redacted(data)
    }

    /// A stream of Server-Sent Events with each `data:` line's payload redacted as a body.
    private func eventStream(_ data: Data) -> Data {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line -> Data in
            guard line.starts(with: Array("data:".utf8)) else { return Data(line) }
            var payload = Data(line.dropFirst(5))
            var prefix = Data("data:".utf8)
            if payload.first == UInt8(ascii: " ") {
                prefix.append(payload.removeFirst())
            }
            var ending = Data()
            if payload.last == UInt8(ascii: "\r") { ending.append(payload.removeLast()) }
            return prefix + body(payload, contentType: nil, depth: 1) + ending
        }
        return Data(lines.joined(separator: [UInt8(ascii: "\n")]))
    }

    private func redactedJSON(_ value: Any, changed: inout Bool) -> Any {
        if let text = value as? String, let nested = nestedJSON(text, changed: &changed) { return nested }
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

    /// A string member that holds JSON itself (`"payload": "{\"password\": …}"`), redacted; `nil`
    /// when it holds none or nothing to hide.
    private func nestedJSON(_ text: String, changed: inout Bool) -> String? {
        guard let first = text.unicodeScalars.first, first == "{" || first == "[",
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8))
        else { return nil }
        var nestedChanged = false
        let redacted = redactedJSON(object, changed: &nestedChanged)
        guard nestedChanged,
            let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys])
        else { return nil }
        changed = true
        return String(decoding: data, as: UTF8.self)
    }
}

extension Redaction {
    /// A short text from a peer (a WebSocket's close reason) as it may be shown: redacted as a
    /// body of text is (a form's credential fields, JSON's credential members).
    func text(_ text: String) -> String {
        String(decoding: body(Data(text.utf8), contentType: "text/plain"), as: UTF8.self)
    }
}
