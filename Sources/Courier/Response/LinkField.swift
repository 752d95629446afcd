import Foundation

/// The parser of the `Link` field (RFC 8288 §3): `<uri>; rel="next last"; title="…", <uri>…`.
enum LinkField {
    /// Each link of `values` whose context is the response itself (no `anchor`), by relation
    /// type (lower-cased; a link with several types under each), its target resolved against
    /// `base`. The first link of a type wins; anything that does not parse is skipped.
    static func links(in values: [String], base: URL?) -> [String: URL] {
        var links: [String: URL] = [:]
        for value in values {
            var scanner = Substring(value)
            while let (target, parameters) = nextLink(&scanner) {
                guard parameters["anchor"] == nil, let relations = parameters["rel"],
                    let url = URL(string: target, relativeTo: base)?.absoluteURL
                else { continue }
                for relation in relations.split(whereSeparator: \.isWhitespace).map({ $0.lowercased() })
                where links[relation] == nil {
                    links[relation] = url
                }
            }
        }
        return links
    }

    /// The next `<target>` and its parameters (names lower-cased, the first of each name kept),
    /// consuming them and the comma after them; `nil` when no link is left.
    private static func nextLink(_ text: inout Substring) -> (String, [String: String])? {
        guard let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") else { return nil }
        let target = String(text[text.index(after: open)..<close])
        text = text[text.index(after: close)...]
        var parameters: [String: String] = [:]
        while let (name, value) = nextParameter(&text) {
            if parameters[name] == nil { parameters[name] = value }
        }
        return (target, parameters)
    }

    /// The next `; name=value` (the value a token or a quoted string with `\` escapes), or `nil`
    /// at a `,` (consumed) or the end.
    private static func nextParameter(_ text: inout Substring) -> (String, String)? {
        text = text.drop(while: { $0 == " " || $0 == "\t" })
        guard text.first == ";" else {
            if text.first == "," { text = text.dropFirst() }
            return nil
        }
        text = text.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
        let name = text.prefix(while: { $0 != "=" && $0 != ";" && $0 != "," && !$0.isWhitespace })
        text = text[name.endIndex...].drop(while: { $0 == " " || $0 == "\t" })
        guard text.first == "=" else { return (name.lowercased(), "") }
        text = text.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
        guard text.first == "\"" else {
            let token = text.prefix(while: { $0 != ";" && $0 != "," && !$0.isWhitespace })
            text = text[token.endIndex...]
            return (name.lowercased(), String(token))
        }
        let (value, rest) = QuotedString.split(text)
        text = rest
        return (name.lowercased(), value)
    }
}
