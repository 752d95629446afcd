/// RFC 9110 §5.6.4's quoted string, as header field parameters carry it (`filename="a \"b\".pdf"`,
/// `rel="next last"`).
enum QuotedString {
    /// The quoted string at the start of `text`, which starts with `"`: its value, with each
    /// `\`-escaped character taken as itself, and what follows the closing quote (nothing when
    /// the quote is never closed).
    static func split(_ text: Substring) -> (value: String, rest: Substring) {
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex, text[index] != "\"" {
            if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
            value.append(text[index])
            index = text.index(after: index)
        }
        return (value, index < text.endIndex ? text[text.index(after: index)...] : text[index...])
    }

    /// `text` cut at each `separator` outside a quoted string, the quotes removed and each
    /// `\`-escaped character taken as itself inside them: `a="x,y", b` → `a=x,y`, ` b`.
    static func pieces(of text: String, separatedBy separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }
}
