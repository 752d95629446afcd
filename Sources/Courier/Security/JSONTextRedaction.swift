import Foundation

/// Hides the values of credential members in JSON text read token by token, without parsing it
/// whole: for text that is not one JSON document (JSON Lines, `application/x-ndjson`, a body cut
/// at a limit, JSON with a syntax error). A member whose name ``Redaction/hidesField(_:)`` hides
/// has its value, whatever it is (a string, a number, an object, an array, or what is left of one
/// where the text ends), replaced by `"***"`; everything else is kept byte for byte.
struct JSONTextRedaction {
    let redaction: Redaction

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let colon = UInt8(ascii: ":")
    private static let maskBytes = Array("\"\(Redaction.mask)\"".utf8)

    /// `data` with the values of credential members hidden.
    func redacted(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var shown = [UInt8]()
        shown.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == Self.quote else {
                shown.append(bytes[index])
                index += 1
                continue
            }
            let end = Self.stringEnd(bytes, from: index)
            shown.append(contentsOf: bytes[index..<end])
            let name = bytes[index..<end]
            index = end
            var next = Self.skipSpace(bytes, from: index)
            guard next < bytes.count, bytes[next] == Self.colon, hides(name) else { continue }
            next = Self.skipSpace(bytes, from: next + 1)
            shown.append(contentsOf: bytes[index..<next])
            index = next
            guard index < bytes.count else { break }
            shown.append(contentsOf: Self.maskBytes)
            index = Self.valueEnd(bytes, from: index)
        }
        return Data(shown)
    }

    /// Whether the quoted member name `token` (its quotes included) is a credential's.
    private func hides(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.count >= 2 else { return false }
        if token.contains(Self.backslash),
            let name = try? JSONSerialization.jsonObject(with: Data(token), options: .fragmentsAllowed) as? String
        {
            return redaction.hidesField(name)
        }
        let inner = token.dropFirst().last == Self.quote ? token.dropFirst().dropLast() : token.dropFirst()
        return redaction.hidesField(String(decoding: inner, as: UTF8.self))
    }

    /// The index after the string that starts with the quote at `start`; at a line's end or the
    /// text's end when it has no closing quote: a JSON string holds no raw line break (RFC 8259
    /// §7), so a broken line never swallows the lines after it.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case backslash:
                guard index + 1 < bytes.count, !isLineBreak(bytes[index + 1]) else { return index + 1 }
                index += 2
            case quote: return index + 1
            case let byte where isLineBreak(byte): return index
            default: index += 1
            }
        }
        return bytes.count
    }

    private static func isLineBreak(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// The index after the value that starts at `start`: a string, an object or array with what it
    /// holds, or a number or literal; the end of the text when it ends first.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        switch bytes[start] {
        case quote: return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    index = stringEnd(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return bytes.count
        default:
            let delimiters = Array(",}] \t\r\n".utf8)
            return bytes[start...].firstIndex(where: delimiters.contains) ?? bytes.count
        }
    }

    private static func skipSpace(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { !" \t\r\n".utf8.contains($0) } ?? bytes.count
    }
}
