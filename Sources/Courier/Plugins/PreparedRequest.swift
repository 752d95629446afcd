import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request that every plugin has prepared and that is about to be adapted and sent, as
/// ``PluginType/willSend(_:target:)`` sees it.
public struct PreparedRequest: Sendable {
    /// The prepared request. The interceptor may still change it before it is sent.
    public let request: URLRequest
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The request this attempt belongs to; ``RequestMetrics/requestID`` in `didReceive` is the same.
    public let requestID: RequestID

    /// Creates a prepared request.
    /// - Parameters:
    ///   - request: The prepared request.
    ///   - attempt: The attempt number, starting at 1.
    ///   - requestID: The request this attempt belongs to.
    public init(request: URLRequest, attempt: Int, requestID: RequestID) {
        self.request = request
        self.attempt = attempt
        self.requestID = requestID
    }

    /// The request as a `curl` command line, its secrets hidden; see
    /// `URLRequest.cURLDescription(redaction:maximumBodyBytes:)`.
    /// - Parameter redaction: What is hidden; ``Redaction/default`` by default.
    /// - Returns: The command line.
    public func cURLDescription(redaction: Redaction = .default) -> String {
        request.cURLDescription(redaction: redaction)
    }

    /// The request as a `curl` command line, hiding the values of `redactedHeaders` (and the
    /// secrets of the URL and body that ``Redaction/default`` names).
    /// - Parameter redactedHeaders: Header names whose values are replaced by `***`.
    /// - Returns: The command line.
    @available(*, deprecated, message: "Use cURLDescription(redaction:) with Redaction(headers:).")
    public func cURLDescription(redacting redactedHeaders: Set<String>) -> String {
        request.cURLDescription(redaction: Redaction(headers: redactedHeaders))
    }
}
