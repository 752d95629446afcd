import Foundation

/// The Subject Public Key Info of an X.509 certificate, read from its DER encoding: the few
/// fields before it are passed over, nothing else is parsed or checked (the certificate is not
/// validated here; its key is only located).
enum CertificateKey {
    /// The DER encoding of the certificate's Subject Public Key Info.
    /// - Parameter certificate: One certificate: DER, or PEM (the first `CERTIFICATE` block).
    /// - Throws: ``TrustPolicyError/invalidCertificate(_:)`` when it is neither, or is cut short.
    static func subjectPublicKeyInfo(of certificate: Data) throws(TrustPolicyError) -> ArraySlice<UInt8> {
        let der = try Self.der(certificate)
        var reader = DERReader(der[...])
        var tbs = try reader.enter(0x30, "the certificate")
        var fields = try tbs.enter(0x30, "the certificate's body")
        // version [0] EXPLICIT, when present; then serialNumber, signature, issuer, validity, subject.
        if fields.peek == 0xA0 { try fields.skip(0xA0, "the version") }
        try fields.skip(0x02, "the serial number")
        for field in ["the signature algorithm", "the issuer", "the validity", "the subject"] {
            try fields.skip(0x30, field)
        }
        return try fields.element(0x30, "the subject public key info")
    }

    /// The DER bytes of `data`: itself, or the first PEM `CERTIFICATE` block decoded.
    private static func der(_ data: Data) throws(TrustPolicyError) -> [UInt8] {
        let begin = Data("-----BEGIN CERTIFICATE-----".utf8)
        guard let start = data.range(of: begin) else { return Array(data) }
        let body = data[start.upperBound...]
        guard let end = body.range(of: Data("-----END CERTIFICATE-----".utf8)),
            let der = Data(base64Encoded: body[..<end.lowerBound], options: .ignoreUnknownCharacters)
        else { throw .invalidCertificate("a PEM certificate block that does not decode") }
        return Array(der)
    }
}

/// Reads DER elements (tag, length, contents) from bytes, each read bounds-checked: a length past
/// the end, an indefinite or oversized length, or an unexpected tag is an error, never a crash.
struct DERReader {
    /// What the reader was given (slices share their base's indices, so any element read is
    /// within it).
    private let all: ArraySlice<UInt8>
    /// What is left to read.
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        (all, self.bytes) = (bytes, bytes)
    }

    /// The next element's tag, or `nil` at the end.
    var peek: UInt8? { bytes.first }

    /// The next element, whole (tag and length included), which must have `tag`.
    mutating func element(_ tag: UInt8, _ what: String) throws(TrustPolicyError) -> ArraySlice<UInt8> {
        let start = bytes.startIndex
        let contents = try read(tag, what)
        return all[start..<contents.endIndex]
    }

    /// A reader of the next element's contents, which must have `tag`.
    mutating func enter(_ tag: UInt8, _ what: String) throws(TrustPolicyError) -> DERReader {
        DERReader(try read(tag, what))
    }

    /// Passes over the next element, which must have `tag`.
    mutating func skip(_ tag: UInt8, _ what: String) throws(TrustPolicyError) {
        _ = try read(tag, what)
    }

    private mutating func read(_ tag: UInt8, _ what: String) throws(TrustPolicyError) -> ArraySlice<UInt8> {
        guard bytes.first == tag else { throw .invalidCertificate("\(what) is not where a certificate has it") }
        var index = bytes.index(after: bytes.startIndex)
        guard index < bytes.endIndex else { throw .invalidCertificate("\(what) is cut short") }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            // At most 4 length bytes: no certificate is larger than 4 GiB; 0 is BER's indefinite length.
            guard (1...4).contains(count), bytes.endIndex - index >= count else {
                throw .invalidCertificate("\(what) has a length DER does not allow")
            }
            length = bytes[index..<(index + count)].reduce(0) { $0 << 8 | Int($1) }
            index += count
        }
        guard bytes.endIndex - index >= length else { throw .invalidCertificate("\(what) is cut short") }
        let contents = bytes[index..<(index + length)]
        bytes = bytes[(index + length)...]
        return contents
    }
}
