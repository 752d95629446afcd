import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Encodes parameters as a JSON object in the body.
///
/// Keys are sorted, so the same parameters always give the same bytes. Sets
/// `Content-Type: application/json` unless one is set. Parameters that are not representable as
/// JSON fail with ``ParameterEncodingError/invalidJSONObject(_:)``, never a crash.
public struct JSONEncoding: ParameterEncoding {
    /// Compact JSON.
    public static let `default` = JSONEncoding()
    /// Indented JSON.
    public static let prettyPrinted = JSONEncoding(options: [.prettyPrinted, .sortedKeys])

    /// The options handed to `JSONSerialization`.
    public let options: JSONSerialization.WritingOptions

    /// Creates an encoding.
    /// - Parameter options: `JSONSerialization` writing options; sorted keys by default.
    public init(options: JSONSerialization.WritingOptions = [.sortedKeys]) {
        self.options = options
    }

    /// Returns `request` with the parameters as its JSON body.
    /// - Parameters:
    ///   - request: The request to encode into.
    ///   - parameters: The parameters; `nil` leaves the request as it is.
    /// - Returns: The encoded request.
    /// - Throws: ``ParameterEncodingError/invalidJSONObject(_:)`` for parameters JSON cannot hold.
    public func encode(_ request: URLRequest, with parameters: Parameters?) throws -> URLRequest {
        guard let parameters else { return request }
        guard JSONSerialization.isValidJSONObject(parameters) else {
            throw ParameterEncodingError.invalidJSONObject(
                "a value is not a string, number, boolean, null, array or dictionary")
        }
        var request = request
        request.httpBody = try JSONSerialization.data(withJSONObject: parameters, options: options)
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setHeaderField("application/json", named: "Content-Type")
        }
        return request
    }
}
