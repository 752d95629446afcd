import Courier
import Foundation

/// permessage-deflate's negotiation (RFC 7692 §7.1): the offer this side makes, and what the
/// server's answer agreed to. The messages are compressed by a ``SocketCompressor`` on the
/// socket's event loop and inflated by a ``SocketInflater`` on the reader's side.
enum SocketDeflate {
    /// What the server's `Sec-WebSocket-Extensions` agreed to.
    struct Agreement: Equatable {
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var clientMaxWindowBits: Int32 = 15

        /// Whether this side can compress within the window the server allowed: zlib writes raw
        /// deflate with a window of 9 bits at least, so with 8 this side sends every message
        /// uncompressed (RFC 7692 lets an endpoint send any message so) and still inflates.
        var compressesSent: Bool { clientMaxWindowBits >= 9 }
    }

    /// The four bytes a sync flush ends with, which a message leaves out (RFC 7692 §7.2.1).
    static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// The extension's field as offered: this side accepts any window the server picks for it.
    static func offer(_ compression: WebSocketCompression) -> String {
        "permessage-deflate; client_max_window_bits"
            + (compression.noContextTakeover ? "; client_no_context_takeover" : "")
    }

    /// What the server's answer agreed to: `nil` when it named no extension; an error when it
    /// named one that was not offered, or parameters RFC 7692 does not allow.
    static func agreement(_ values: [String], offered: WebSocketCompression?) throws -> Agreement? {
        // A list's empty elements are no elements (RFC 9110 §5.6.1).
        let extensions = values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !extensions.isEmpty else { return nil }
        guard let offered, extensions.count == 1 else {
            throw WebSocketError.invalidHandshake("the server chose an extension that was not offered")
        }
        let parts = extensions[0].split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "permessage-deflate" else {
            throw WebSocketError.invalidHandshake("the server chose an extension that was not offered")
        }
        var agreement = Agreement(clientNoContextTakeover: offered.noContextTakeover)
        var seen: Set<String> = []
        for parameter in parts.dropFirst() {
            // Empty pieces are kept: "=" must not leave the name missing.
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = pair.first, !first.isEmpty else { throw invalid("has a parameter without a name") }
            let name = first.lowercased()
            guard seen.insert(name).inserted else { throw invalid("repeats a parameter") }
            try apply(name, value: pair.count == 2 ? pair[1] : nil, to: &agreement)
        }
        return agreement
    }

    /// Records one parameter of the answer in `agreement`.
    private static func apply(_ name: String, value: String?, to agreement: inout Agreement) throws {
        switch (name, value) {
        case ("server_no_context_takeover", nil): agreement.serverNoContextTakeover = true
        case ("client_no_context_takeover", nil): agreement.clientNoContextTakeover = true
        case ("server_max_window_bits", let value?):
            // Inflating with the largest window reads what any smaller one wrote.
            guard windowBits(value) != nil else { throw invalid("has a server_max_window_bits that is not 8 to 15") }
        case ("client_max_window_bits", let value?):
            guard let bits = windowBits(value) else {
                throw invalid("has a client_max_window_bits that is not 8 to 15")
            }
            agreement.clientMaxWindowBits = bits
        case ("server_no_context_takeover", _), ("client_no_context_takeover", _):
            throw invalid("gives a value to a parameter that takes none")
        case ("server_max_window_bits", nil), ("client_max_window_bits", nil):
            throw invalid("gives a window parameter no value")
        default: throw invalid("has a parameter that permessage-deflate does not define")
        }
    }

    /// A window parameter's value: a decimal from 8 to 15 without leading zeros, quoted or not
    /// (RFC 7692 §7.1.2); `nil` for anything else.
    private static func windowBits(_ value: String) -> Int32? {
        var digits = Substring(value)
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" { digits = digits.dropFirst().dropLast() }
        guard digits.allSatisfy({ ("0"..."9").contains($0) }), digits.first != "0",
            let bits = Int32(digits), (8...15).contains(bits)
        else { return nil }
        return bits
    }

    /// The error of an answer RFC 7692 does not allow; it never quotes the server's text.
    private static func invalid(_ problem: String) -> WebSocketError {
        .invalidHandshake("its permessage-deflate answer \(problem)")
    }
}
