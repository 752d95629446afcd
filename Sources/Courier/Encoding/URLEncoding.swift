import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes parameters as `application/x-www-form-urlencoded` text, in the query string or the body.
///
/// Keys are sorted, so the same parameters always give the same bytes. Values are escaped per
/// RFC 3986: only unreserved characters, `/` and `?` are left as they are. Nested dictionaries
/// become `key[sub]=value`; arrays follow ``arrayEncoding``; booleans follow ``boolEncoding``.
/// A query string is appended to any query the URL already has. A body gets
/// `Content-Type: application/x-www-form-urlencoded; charset=utf-8` unless one is set.
/// ```swift
/// .requestParameters(parameters: ["page": 2, "tags": ["a", "b"]], encoding: URLEncoding.queryString)
/// // ?page=2&tags%5B%5D=a&tags%5B%5D=b
/// ```
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable {
        /// The query string for `GET`, `HEAD` and `DELETE`; the body for every other method.
        case methodDependent
        /// Always the query string.
        case queryString
        /// Always the body.
        case httpBody
    }

    /// How array values are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=a&key[]=b` (the default).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
        /// A key you compute from the array's key and the element's index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            case .custom(let encode): encode(key, index)
            }
        }
    }

    /// How boolean values are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        func encode(_ value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// A method-dependent encoding with the default array and boolean encodings.
    public static let `default` = URLEncoding()
    /// An encoding that always writes the query string.
    public static let queryString = URLEncoding(destination: .queryString)
    /// An encoding that always writes the body.
    public static let httpBody = URLEncoding(destination: .httpBody)

    /// Where the parameters go.
    public let destination: Destination
    /// How array values are keyed.
    public let arrayEncoding: ArrayEncoding
    /// How boolean values are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding.
    /// - Parameters:
    ///   - destination: Where the parameters go; method-dependent by default.
    ///   - arrayEncoding: How array values are keyed; `key[]` by default.
    ///   - boolEncoding: How booleans are written; `1`/`0` by default.
    public init(
        destination: Destination = .methodDependent,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Returns `request` with the parameters in its query string or body.
    /// - Parameters:
    ///   - request: The request to encode into.
    ///   - parameters: The parameters; `nil` or empty leaves the request as it is.
    /// - Returns: The encoded request.
    /// - Throws: ``ParameterEncodingError`` for a value that cannot be written or a missing URL.
    public func encode(_ request: URLRequest, with parameters: Parameters?) throws -> URLRequest {
        guard let parameters, !parameters.isEmpty else { return request }
        var request = request
        let encoded = try query(parameters)
        if writesToURL(request) {
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { throw ParameterEncodingError.missingURL }
            let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
            components.percentEncodedQuery = existing + encoded
            request.url = components.url
        } else {
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue(
                    "application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = Data(encoded.utf8)
        }
        return request
    }

    /// The encoded `key=value` pairs of `parameters`, sorted by key and joined with `&`.
    /// - Parameter parameters: The parameters to encode.
    /// - Returns: The query text, already percent-escaped.
    /// - Throws: ``ParameterEncodingError/unsupportedValue(key:type:)`` for a value it cannot write.
    public func query(_ parameters: Parameters) throws -> String {
        var pairs: [String] = []
        for key in parameters.keys.sorted() {
            try appendPairs(key: key, value: parameters[key]!, to: &pairs)
        }
        return pairs.joined(separator: "&")
    }

    private func writesToURL(_ request: URLRequest) -> Bool {
        switch destination {
        case .queryString: true
        case .httpBody: false
        case .methodDependent: HTTPMethod(rawValue: request.httpMethod ?? "GET").encodesParametersInURL
        }
    }

    private func appendPairs(key: String, value: Any, to pairs: inout [String]) throws {
        if let dictionary = value as? [String: Any] {
            for nestedKey in dictionary.keys.sorted() {
                try appendPairs(key: "\(key)[\(nestedKey)]", value: dictionary[nestedKey]!, to: &pairs)
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                try appendPairs(key: arrayEncoding.encode(key: key, atIndex: index), value: element, to: &pairs)
            }
        } else {
            pairs.append(Self.escape(key) + "=" + Self.escape(try scalar(value, key: key)))
        }
    }

    private func scalar(_ value: Any, key: String) throws -> String {
        switch value {
        case let bool as Bool: return boolEncoding.encode(bool)
        case let string as String: return string
        case let decimal as Decimal: return decimal.description
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case is NSNull: return ""
        case let number as NSNumber: return number.stringValue
        case let convertible as any LosslessStringConvertible: return convertible.description
        default: throw ParameterEncodingError.unsupportedValue(key: key, type: "\(type(of: value))")
        }
    }

    /// Characters left as they are in a query component: RFC 3986's unreserved set plus `/` and `?`.
    private static let allowed: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~/?")
        return set
    }()

    /// Percent-escapes `string` for use as a query key or value.
    /// - Parameter string: The raw text.
    /// - Returns: The escaped text.
    public static func escape(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
    }
}
