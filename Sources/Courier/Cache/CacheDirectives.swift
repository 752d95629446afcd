import Foundation

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), with the spec's
/// rules for bad input: an invalid or duplicated `max-age` makes a response stale, a delta over
/// 2^31 is 2^31, unknown directives are ignored.
struct CacheDirectives: Sendable {
    /// The largest delta-seconds a cache needs to tell apart (§1.2.2).
    static let maximumDelta = 2_147_483_648

    /// One directive: its lower-case name, with its value (unquoted) when it has one.
    struct Item: Sendable, Equatable {
        let name: String
        let value: String?
    }

    /// The directives in the order given, repeats included. A list, not a dictionary: a field
    /// holds a few, and hashing each name cost more than comparing it with the few others.
    private var items: [Item] = []

    /// The directives of every `Cache-Control` field in `fields`; with none, a request's
    /// `Pragma: no-cache` counts as `no-cache` (RFC 7234 §5.4).
    init(_ fields: HeaderFields, isRequest: Bool = false) {
        let lines = fields.values(for: "Cache-Control")
        self.init(lines: lines)
        if isRequest, lines.isEmpty,
            fields.values(for: "Pragma").contains(where: { $0.lowercased().contains("no-cache") })
        {
            items.append(Item(name: "no-cache", value: nil))
        }
    }

    /// The directives of these `Cache-Control` field lines.
    init(lines: [String]) {
        for line in lines {
            items += Self.items(line).filter { !$0.name.isEmpty }
        }
    }

    /// The first directive named `name`.
    private func first(_ name: String) -> Item? {
        items.first { $0.name == name }
    }

    /// Whether `name` is present, with or without a value.
    func has(_ name: String) -> Bool { first(name) != nil }

    /// A delta-seconds directive: `nil` when absent, `.invalid` when present but not a
    /// non-negative integer (or given twice with different values).
    func seconds(_ name: String) -> Delta? {
        guard let item = first(name) else { return nil }
        guard let text = item.value, let seconds = Self.deltaSeconds(text) else { return .invalid }
        if items.lazy.filter({ $0.name == name }).count > 1 { return .invalid }
        return .seconds(seconds)
    }

    /// The delta-seconds of `text` (ASCII digits only, at least one), at most ``maximumDelta``;
    /// `nil` when it is not one. Read from the bytes: by `Character`, a check of `max-age=60`
    /// cost about 4,000 instructions (callgrind).
    static func deltaSeconds(_ text: String) -> Int? {
        var seconds = 0
        var digits = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            digits += 1
            if seconds < maximumDelta { seconds = min(seconds * 10 + Int(byte - UInt8(ascii: "0")), maximumDelta) }
        }
        return digits == 0 ? nil : seconds
    }

    /// The field names a qualified `no-cache="…"` or `private="…"` lists; empty when the
    /// directive is unqualified or absent.
    func fieldNames(_ name: String) -> [String] {
        guard let list = first(name)?.value else { return [] }
        return list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Whether `name` is present without a field list (`no-cache`, not `no-cache="Set-Cookie"`).
    func isUnqualified(_ name: String) -> Bool {
        guard let item = first(name) else { return false }
        return item.value == nil || item.value?.isEmpty == true
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
    static func items(_ line: String) -> [Item] {
        var line = line
        // An ASCII line (every field line in practice) on its bytes: walking `Character`s and
        // trimming with Foundation cost about 28,000 instructions a line on Linux (callgrind).
        if let items = line.withUTF8(asciiItems) { return items }
        return characterItems(line)
    }

    /// ``items(_:)`` of an ASCII line, from its bytes; `nil` for a line with another byte.
    private static func asciiItems(_ line: UnsafeBufferPointer<UInt8>) -> [Item]? {
        guard line.allSatisfy({ $0 < 0x80 }) else { return nil }
        // The current item's bytes, unquoted, in a buffer on the stack.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, line.count)) { buffer in
            var items: [Item] = []
            var count = 0
            var quoted = false
            var escaped = false
            for byte in line {
                if escaped {
                    buffer[count] = byte
                    count += 1
                    escaped = false
                } else if quoted && byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if byte == UInt8(ascii: ",") && !quoted {
                    items.append(asciiItem(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
                    count = 0
                } else {
                    buffer[count] = byte
                    count += 1
                }
            }
            items.append(asciiItem(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
            return items
        }
    }

    /// One ASCII item: the lower-case name and its value, both without surrounding spaces or tabs.
    /// Lower-cases the name in place.
    private static func asciiItem(_ text: UnsafeMutableBufferPointer<UInt8>) -> Item {
        let equals = text.firstIndex(of: UInt8(ascii: "="))
        let nameRange = trimmed(text[..<(equals ?? text.endIndex)])
        for index in nameRange where text[index] >= UInt8(ascii: "A") && text[index] <= UInt8(ascii: "Z") {
            text[index] |= 0x20
        }
        let name = String(decoding: UnsafeMutableBufferPointer(rebasing: text[nameRange]), as: UTF8.self)
        let value = equals.map {
            String(decoding: UnsafeMutableBufferPointer(rebasing: text[trimmed(text[($0 + 1)...])]), as: UTF8.self)
        }
        return Item(name: name, value: value)
    }

    /// The range of `text` without the spaces and tabs at either end (what `.whitespaces` holds
    /// in ASCII).
    private static func trimmed(_ text: Slice<UnsafeMutableBufferPointer<UInt8>>) -> Range<Int> {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let start = text.firstIndex(where: { !isBlank($0) }) else { return text.endIndex..<text.endIndex }
        return start..<(text.lastIndex(where: { !isBlank($0) })! + 1)
    }

    /// ``items(_:)`` of any line, by `Character` (and what the tests hold the byte path to).
    static func characterItems(_ line: String) -> [Item] {
        QuotedString.pieces(of: line, separatedBy: ",").map(item)
    }

    /// One item: the lower-case name and its trimmed value.
    private static func item(_ text: String) -> Item {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
        let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        return Item(name: name, value: value)
    }
}
