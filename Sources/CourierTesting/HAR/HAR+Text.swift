import Courier
import Foundation

/// The bytes a HAR text stands for. HAR 1.2 keeps a text body decoded (`content.text`, a
/// `postData.text`), so its bytes are the text encoded in the charset its content type names
/// (UTF-8 when it names none), and `content.size` is their count. Courier's own recorder writes a
/// body as UTF-8 text when it is valid UTF-8 (Base64 otherwise), whatever its label: its entries
/// (those with `_courier`) are read back that way.
extension HAR {
    /// Why a text cannot be turned back into bytes.
    enum TextProblem: Error, Equatable {
        /// The charset is unknown, or cannot encode a character of the text.
        case notEncodable(charset: String)
    }

    /// The charset a content type names (`text/plain; charset="ISO-8859-1"` → `iso-8859-1`), or
    /// `nil`.
    static func charset(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            let value = pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(["\""]))
            return value.isEmpty ? nil : value.lowercased()
        }
        return nil
    }

    /// The encoding of an IANA charset name (lowercased), or `nil` for one Courier does not know.
    static func encoding(ofCharset charset: String) -> String.Encoding? {
        switch charset {
        case "utf-8", "utf8": return .utf8
        case "us-ascii", "ascii": return .ascii
        case "iso-8859-1", "iso_8859-1", "latin1", "l1", "iso8859-1": return .isoLatin1
        case "iso-8859-2", "iso_8859-2", "latin2", "l2": return .isoLatin2
        case "windows-1250", "cp1250": return .windowsCP1250
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1253", "cp1253": return .windowsCP1253
        case "windows-1254", "cp1254": return .windowsCP1254
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be", "utf-16": return .utf16BigEndian
        case "utf-32le": return .utf32LittleEndian
        case "utf-32be", "utf-32": return .utf32BigEndian
        case "macintosh", "mac": return .macOSRoman
        case "shift_jis", "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        case "iso-2022-jp": return .iso2022JP
        default: return nil
        }
    }

    /// The bytes of a HAR text: its Base64 decoded, or the text encoded in `charset` (UTF-8 when
    /// `nil`).
    /// - Throws: ``TextProblem/notEncodable(charset:)`` when `charset` is unknown or cannot encode
    ///   the text.
    static func data(of text: String?, base64: Bool, charset: String?) throws(TextProblem) -> Data {
        guard let text, !base64, let charset else { return data(of: text, base64: base64) }
        guard let encoding = encoding(ofCharset: charset), let bytes = text.data(using: encoding) else {
            throw .notEncodable(charset: charset)
        }
        return bytes
    }
}

extension HAR.Entry {
    /// The charset the recorded response's text was decoded from: `nil` for a Base64 body, for
    /// Courier's own entries (UTF-8), and for UTF-8.
    var responseCharset: String? {
        guard courier == nil, response.content.encoding != "base64" else { return nil }
        let type = response.content.mimeType.flatMap { HAR.charset(of: $0) == nil ? nil : $0 }
        let charset = HAR.charset(of: type ?? responseFields["Content-Type"])
        return charset.flatMap { HAR.encoding(ofCharset: $0) == .utf8 ? nil : $0 }
    }

    /// The recorded response's body, its text encoded in its charset.
    /// - Throws: ``HAR/TextProblem/notEncodable(charset:)`` when the charset cannot encode it.
    func recordedResponseBody() throws(HAR.TextProblem) -> Data {
        try HAR.data(
            of: response.content.text, base64: response.content.encoding == "base64", charset: responseCharset)
    }

    /// The charset the recorded request's text was decoded from, as ``responseCharset``.
    var requestCharset: String? {
        guard courier == nil, request.postData?.encoding != "base64" else { return nil }
        let charset = HAR.charset(of: request.postData?.mimeType)
        return charset.flatMap { HAR.encoding(ofCharset: $0) == .utf8 ? nil : $0 }
    }
}
