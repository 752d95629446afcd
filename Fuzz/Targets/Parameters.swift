import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URL and JSON parameter encoding of arbitrary parameters: never a crash; URL-encoded output is
/// plain ASCII; JSON output reads back with the same keys.
public func fuzzParameters(_ pointer: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(pointer, count)
    let parameters = input.parameters(depth: 0)
    let encodings = [
        URLEncoding.default, .queryString, .httpBody, URLEncoding(arrayEncoding: .noBrackets, boolEncoding: .literal),
        URLEncoding(destination: .queryString, arrayEncoding: .indexInBrackets),
    ]
    for encoding in encodings {
        var request = URLRequest(url: URL(string: "https://fuzz.invalid/path?existing=1")!)
        request.httpMethod = input.bool() ? "GET" : "POST"
        guard let encoded = try? encoding.encode(request, with: parameters) else { continue }
        let text = (encoded.url?.absoluteString ?? "") + String(decoding: encoded.httpBody ?? Data(), as: UTF8.self)
        precondition(text.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F }, "URL encoding produced \(text)")
    }
    var request = URLRequest(url: URL(string: "https://fuzz.invalid")!)
    request.httpMethod = "POST"
    if let encoded = try? JSONEncoding.default.encode(request, with: parameters) {
        let object = try? JSONSerialization.jsonObject(with: encoded.httpBody ?? Data()) as? [String: Any]
        precondition(object?.count == parameters.count, "JSON lost keys")
    }
    return 0
}

extension FuzzInput {
    mutating func parameters(depth: Int) -> Parameters {
        var parameters: Parameters = [:]
        for _ in 0..<(Int(byte()) % 6) where !isEmpty {
            parameters[string()] = value(depth: depth)
        }
        return parameters
    }

    mutating func value(depth: Int) -> any Sendable {
        switch byte() % (depth < 3 ? 8 : 6) {
        case 0: return string()
        case 1: return int()
        case 2: return Double(bitPattern: UInt64(truncatingIfNeeded: int()))
        case 3: return bool()
        case 4: return NSNull()
        case 5: return Int8(truncatingIfNeeded: int())
        case 6: return (0..<(Int(byte()) % 4)).map { _ in string() }
        default: return parameters(depth: depth + 1)
        }
    }
}
