import Foundation

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), with the spec's
/// rules for bad input: an invalid or duplicated `max-age` makes a response stale, a delta over
/// 2^31 is 2^31, unknown directives are ignored.
struct CacheDirectives: Sendable, Equatable {
    /// The largest delta-seconds a cache needs to tell apart (§1.2.2).
    static let maximumDelta = 2_147_483_648

    /// Each directive by lower-case name, with its value (unquoted) when it has one.
    private var values: [String: String?] = [:]
    /// Names that appeared more than once.
    private var repeated: Set<String> = []

    /// The directives of every `Cache-Control` field in `fields`; with none, a request's
    /// `Pragma: no-cache` counts as `no-cache` (RFC 7234 §5.4).
    init(_ fields: HeaderFields, isRequest: Bool = false) {
        let lines = fields.values(for: "Cache-Control")
        for line in lines {
            for item in Self.items(line) where !item.name.isEmpty {
                if values[item.name] != nil { repeated.insert(item.name) } else { values[item.name] = item.value }
            }
        }
        if isRequest, lines.isEmpty,
            fields.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") })
        {
            values["no-cache"] = .some(nil)
        }
    }

    /// Whether `name` is present, with or without a value.
    func has(_ name: String) -> Bool { values[name] != nil }

    /// A delta-seconds directive: `nil` when absent, `.invalid` when present but not a
    /// non-negative integer (or given twice with different values).
    func seconds(_ name: String) -> Delta? {
        guard let value = values[name] else { return nil }
        guard let text = value, !text.isEmpty, text.allSatisfy(\.isASCIIDigit) else { return .invalid }
        if repeated.contains(name) { return .invalid }
        return .seconds(Int(text.prefix(11)).map { min($0, Self.maximumDelta) } ?? Self.maximumDelta)
    }

    /// The field names a qualified `no-cache="…"` or `private="…"` lists; empty when the
    /// directive is unqualified or absent.
    func fieldNames(_ name: String) -> [String] {
        guard let value = values[name], let list = value else { return [] }
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether `name` is present without a field list (`no-cache`, not `no-cache="Set-Cookie"`).
    func isUnqualified(_ name: String) -> Bool {
        guard let value = values[name] else { return false }
        return value == nil || value?.isEmpty == true
    }

    /// A delta-seconds value, or a value that is not one.
    enum Delta: Equatable {
        case seconds(Int)
        case invalid

        /// The seconds, with an invalid value as `invalid`.
        func value(invalid: Int) -> Int {
            if case .seconds(let seconds) = self { return seconds }
            return invalid
        }
    }

    /// The `name[=value]` items of one field line, split at commas outside quoted strings.
    private static func items(_ line: String) -> [(name: String, value: String?)] {
        var items: [(String, String?)] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                items.append(item(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(item(current))
        return items
    }

    /// One item: the lower-case name and its trimmed value.
    private static func item(_ text: String) -> (String, String?) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        return (name, value)
    }
}
