import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Arbitrary header names and values, `Content-Disposition` values and URL texts through
/// Courier's security rules: a request that passes `HeaderFieldRules` can hold no line break and
/// no framing header; a download name is always one plain, short file name; redaction never
/// crashes and never shows a planted password; a certificate's key is read or refused, never
/// read out of bounds.
public func fuzzSecurity(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    checkHeader(name: input.string(maximum: 24), value: input.string(maximum: 48))
    checkFileName(disposition: input.string(maximum: 96))
    let text = input.string(maximum: 96)
    if let url = URL(string: "http://ann:PLANTEDPW@h.example/" + text) {
        precondition(!Redaction.default.url(url).contains("PLANTEDPW"), "a password survived redaction")
    }
    // Also text URLComponents cannot parse, redacted by hand: compared as bytes, since a
    // combining mark after the password would hide it from a character comparison.
    let planted = Data("PLANTEDPW".utf8)
    if Data(text.utf8).range(of: planted) == nil {
        let shown = Redaction.default.urlString("http://ann:PLANTEDPW@" + text)
        precondition(Data(shown.utf8).range(of: planted) == nil, "a password survived redaction: \(shown)")
    }
    _ = Redaction.default.body(Data(text.utf8), contentType: input.bool() ? "application/json" : nil)
    // What is left is a certificate, DER or (with a PEM frame around it) PEM: a pin or a typed
    // error, never a read out of bounds.
    var certificate = input.rest()
    if certificate.first.map({ $0 & 1 == 1 }) == true {
        certificate =
            Data("-----BEGIN CERTIFICATE-----\n".utf8) + certificate.base64EncodedData()
            + Data("\n-----END CERTIFICATE-----\n".utf8)
    }
    _ = try? SPKIPin(certificate: certificate)
    return 0
}

private func checkHeader(name: String, value: String) {
    var request = URLRequest(url: URL(string: "http://h.example/")!)
    request.allHTTPHeaderFields = [name: value]
    guard let checked = try? HeaderFieldRules.checked(request) else { return }
    for (sentName, sentValue) in checked.allHTTPHeaderFields ?? [:] {
        precondition(HeaderFieldRules.isToken(sentName), "a name that is not a token passed")
        precondition(!sentValue.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "a line break passed")
        precondition(!HeaderFieldRules.framingFieldNames.contains(sentName.lowercased()), "a framing header passed")
    }
}

private func checkFileName(disposition: String) {
    let response = HTTPURLResponse(
        url: URL(string: "http://h.example/d/file.bin")!, statusCode: 200, httpVersion: nil,
        headerFields: ["Content-Disposition": disposition])
    let name = DownloadFileName.suggested(by: response)
    precondition(!name.isEmpty && name.utf8.count <= DownloadFileName.maximumLength, "bad length: \(name)")
    // Scalars, not characters: "/" followed by a combining mark is one character, yet a "/".
    let scalars = name.unicodeScalars
    precondition(!scalars.contains("/") && !scalars.contains("\\") && scalars.first != ".", "unsafe name: \(name)")
    precondition(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control character")
    let folder = URL(fileURLWithPath: "/downloads", isDirectory: true)
    let placed = folder.appendingPathComponent(name).standardizedFileURL
    precondition(placed.deletingLastPathComponent().path == folder.path, "escaped the folder: \(name)")
}
