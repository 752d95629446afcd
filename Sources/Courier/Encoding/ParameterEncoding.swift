import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes ``Parameters`` into a `URLRequest`, in its URL or its body.
///
/// Use the built-ins, ``URLEncoding`` and ``JSONEncoding``, or write your own for another format:
/// ```swift
/// struct PlistEncoding: ParameterEncoding {
///     func encode(_ request: URLRequest, with parameters: Parameters?) throws -> URLRequest {
///         var request = request
///         request.httpBody = try PropertyListSerialization.data(fromPropertyList: parameters ?? [:], format: .xml, options: 0)
///         return request
///     }
/// }
/// ```
/// Errors thrown here reach the caller as ``CourierError/parameterEncoding(_:)``.
public protocol ParameterEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it.
    /// - Parameters:
    ///   - request: The request to encode into.
    ///   - parameters: The parameters, or `nil` for none.
    /// - Returns: The request with the parameters applied.
    /// - Throws: An error when the parameters cannot be encoded.
    func encode(_ request: URLRequest, with parameters: Parameters?) throws -> URLRequest
}

/// Why a ``ParameterEncoding`` could not encode its parameters.
///
/// Later versions may add cases: a `switch` over it needs a `default` (see <doc:SourceStability>).
public enum ParameterEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request has no URL to add a query string to.
    case missingURL
    /// The parameters are not representable as JSON (for example a `Date` or a custom type).
    case invalidJSONObject(String)
    /// A parameter value has a type the encoding does not know how to write.
    case unsupportedValue(key: String, type: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .missingURL:
            "The request has no URL to encode parameters into."
        case .invalidJSONObject(let detail):
            "The parameters cannot be written as JSON: \(detail)."
        case .unsupportedValue(let key, let type):
            "The parameter '\(key)' has a value of type \(type), which cannot be URL-encoded."
        }
    }
}
