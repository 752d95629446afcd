import Foundation

/// Multipart encoding of arbitrary parts, parsed back as a server would: never a crash, and the
/// same parts come back (unless a part happens to contain the boundary line itself).
public func fuzzMultipart(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let boundary = "fuzz-boundary-0123456789"
    var form = MultipartFormData(boundary: boundary)
    for _ in 0..<(Int(input.byte()) % 6) where !input.isEmpty {
        let name = input.string()
        let fileName = input.bool() ? input.string() : nil
        let mimeType = input.bool() ? input.string() : nil
        form.append(input.data(maximum: 64), name: name, fileName: fileName, mimeType: mimeType)
    }
    guard let encoded = try? form.encoded() else { return 0 }
    precondition(try! form.contentLength() == UInt64(encoded.count), "content length differs from the body")
    if form.parts.contains(where: { $0.content.bytes.range(of: Data("\r\n--\(boundary)".utf8)) != nil }) { return 0 }
    guard !form.parts.isEmpty else { return 0 }
    let parsed = MultipartParser.parse(encoded, contentType: form.contentType)
    precondition(
        parsed?.map(\.body) == form.parts.map(\.content.bytes), "parts did not survive: \(form.parts.map(\.name))")
    return 0
}

extension MultipartFormData.Content {
    var bytes: Data {
        if case .data(let data) = self { return data }
        return Data()
    }
}
